// kiln::distributed::DistributedArray across two processes (from_mpi): each rank holds its own
// shards, and get, gather and the reductions bring the other rank's through the communicator.
// Every result is checked on both ranks against the same computation on one device of the rank
// (each rank has the whole data). A map that leaves rank 1 without a shard checks that a rank
// with nothing still learns the result's dtype and joins every collective. Ghost rows are checked
// against the rows of the host data around each shard. Random draws, products and redistribution
// are checked on even, uneven and 2-D maps against kiln::random and kiln::matmul on one device and
// the host data's blocks. Reductions along the split axis combine partials across the two
// processes; scatter sends one rank's data, host buffer or strided ndarray, to both, and a bad
// argument on either rank is an error on both.
#include "tests/support/expect_error.hpp"

#include <kiln/distributed/mpi.hpp>
#include <kiln/kiln.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace {

namespace dist = kiln::distributed;
using kiln::ndarray;

// This process's one rank of the world, made once, or why there is none (the same on every
// rank).
struct Ranks {
    dist::Communicators comms;
    std::string missing;
};

const Ranks& world_ranks() {
    static const Ranks ranks = [] {
        Ranks made;
        int size = 0;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        if (size != 2) {
            made.missing =
                "run under mpirun -np 2 (this run has " + std::to_string(size) + " rank(s))";
            return made;
        }
        try {
            auto comms = std::make_shared<std::vector<dist::Communicator>>();
            comms->push_back(dist::from_mpi(MPI_COMM_WORLD));
            made.comms = std::move(comms);
        } catch (const kiln::NoDevice& e) {
            made.missing = e.what();
        }
        return made;
    }();
    return ranks;
}

#define KILN_REQUIRE_TWO_RANKS()        \
    if (!world_ranks().missing.empty()) \
    GTEST_SKIP() << world_ranks().missing

std::vector<double> sample(std::size_t n, double scale) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = scale * (static_cast<double>(i % 13) - 4.5);
    }
    return v;
}

void expect_close(const ndarray& got, const ndarray& expected, const std::string& what) {
    ASSERT_EQ(got.dtype(), expected.dtype()) << what;
    const double want = expected.item<double>();
    EXPECT_NEAR(got.item<double>(), want, 1e-12 * std::abs(want)) << what;
}

// Sharded by `map` (the default split when none), every result against one device's.
void check_against_one_device(const std::optional<dist::IndexMap>& map, const std::string& which) {
    const auto& comms = world_ranks().comms;
    const kiln::Shape shape = {9, 3};
    const std::vector<double> x = sample(27, 1.0);
    const std::vector<double> y = sample(27, 0.5);
    const dist::DistributedArray a =
        dist::distributed_array(std::span<const double>(x), shape, comms, map);
    const dist::DistributedArray b =
        dist::distributed_array(std::span<const double>(y), shape, comms, map);
    const ndarray ax = kiln::array(x, shape);
    const ndarray by = kiln::array(y, shape);
    EXPECT_EQ(a.get<double>(), x) << which;
    EXPECT_EQ(a.gather(kiln::Device(0)).get<double>(), x) << which;
    const dist::DistributedArray squared = (a - b) * (a - b);
    EXPECT_EQ(squared.get<double>(), ((ax - by) * (ax - by)).get<double>()) << which;
    expect_close(dist::mean(squared), kiln::mean((ax - by) * (ax - by)), "mse, " + which);
    expect_close(dist::sum(a), kiln::sum(ax), "sum, " + which);
    expect_close(dist::max(a), kiln::max(ax), "max, " + which);
    expect_close(dist::std(b), kiln::std(by), "std, " + which);
    expect_close(dist::norm(a), kiln::linalg::norm(ax), "norm, " + which);
    EXPECT_EQ(dist::argmax(a).item<std::int64_t>(), kiln::argmax(ax).item<std::int64_t>()) << which;
    EXPECT_EQ(dist::argmin(b).item<std::int64_t>(), kiln::argmin(by).item<std::int64_t>()) << which;
    EXPECT_EQ(dist::sum(a, 1).get<double>(), kiln::sum(ax, 1).get<double>()) << which;
}

TEST(TwoRanksDistributedArray, DefaultSplitMatchesOneDevice) {
    KILN_REQUIRE_TWO_RANKS();
    check_against_one_device(std::nullopt, "default split");
}

TEST(TwoRanksDistributedArray, ARankWithoutShardsJoinsEveryCollective) {
    KILN_REQUIRE_TWO_RANKS();
    check_against_one_device(dist::IndexMap{{0, {{0, 4}, {0, 3}}}, {0, {{4, 9}, {0, 3}}}},
                             "every shard on rank 0");
}

// After exchange_halos, each local shard's padded rows are the whole array's rows around it (zeros
// past its first and last row, which with_halo leaves as they were).
void check_ghost_rows(const dist::IndexMap& map, std::int64_t width, const std::string& which) {
    const std::int64_t rows = 9;
    const std::int64_t columns = 4;
    const std::vector<double> x = sample(static_cast<std::size_t>(rows * columns), 1.5);
    const dist::DistributedArray a =
        dist::with_halo(dist::distributed_array(std::span<const double>(x), {rows, columns},
                                                world_ranks().comms, map),
                        width);
    dist::exchange_halos(a);
    for (const dist::Shard& shard : a.local_shards()) {
        const dist::AxisRange range = map[shard.index].ranges[0];
        std::vector<double> expected;
        for (std::int64_t r = range.begin - width; r < range.end + width; ++r) {
            for (std::int64_t c = 0; c < columns; ++c) {
                expected.push_back(
                    r < 0 || r >= rows ? 0.0 : x[static_cast<std::size_t>(r * columns + c)]);
            }
        }
        EXPECT_EQ(shard.padded.get<double>(), expected)
            << which << ", shard " << shard.index << ", width " << width;
    }
}

TEST(TwoRanksDistributedArray, GhostRowsHoldTheNeighboursRows) {
    KILN_REQUIRE_TWO_RANKS();
    for (const std::int64_t width : {1, 2}) {
        check_ghost_rows(dist::split_index_map({9, 4}, 2), width, "default split");
        // Rank 0 holds the first and last blocks, rank 1 the middle one.
        check_ghost_rows({{0, {{0, 3}, {0, 4}}}, {1, {{3, 5}, {0, 4}}}, {0, {{5, 9}, {0, 4}}}},
                         width, "three blocks");
    }
}

// The maps the routines below are tried on: the even split, uneven row blocks with an empty shard
// and rank 0 holding two, 2-D blocks, and every shard on rank 0.
std::vector<dist::IndexMap> row_and_block_maps(const kiln::Shape& shape) {
    return {dist::split_index_map(shape, 2),
            {{0, {{0, 2}, {0, shape[1]}}},
             {1, {{2, 2}, {0, shape[1]}}},
             {1, {{2, 7}, {0, shape[1]}}},
             {0, {{7, shape[0]}, {0, shape[1]}}}},
            dist::make_2d_index_map(shape, {0, 4, shape[0]}, {0, 1, shape[1]}, {{1, 0}, {0, 1}}),
            {{0, {{0, shape[0]}, {0, shape[1]}}}}};
}

TEST(TwoRanksDistributedArray, RandomMatchesOneDeviceWhateverThePartition) {
    KILN_REQUIRE_TWO_RANKS();
    const kiln::Shape shape = {9, 5};
    for (const dist::IndexMap& map : row_and_block_maps(shape)) {
        const auto& comms = world_ranks().comms;
        EXPECT_EQ(dist::random::uniform(shape, comms, -1, 2, 17, kiln::float64, map).get<double>(),
                  kiln::random::uniform(shape, -1, 2, 17).get<double>());
        EXPECT_EQ(dist::random::normal(shape, comms, 0, 1, 3, kiln::float32, map).get<float>(),
                  kiln::random::normal(shape, 0, 1, 3, kiln::float32).get<float>());
        EXPECT_EQ(
            dist::random::integers(shape, comms, 0, 9, 8, kiln::int64, map).get<std::int64_t>(),
            kiln::random::integers(shape, 0, 9, 8).get<std::int64_t>());
    }
}

TEST(TwoRanksDistributedArray, MatmulOfRowBlocksMatchesOneDevice) {
    KILN_REQUIRE_TWO_RANKS();
    const std::vector<double> x = sample(45, 1.0);  // multiples of 0.5: every sum is exact
    const std::vector<double> y = sample(10, 0.5);
    const ndarray b = kiln::array(y, kiln::Shape{5, 2});
    const ndarray expected = kiln::matmul(kiln::array(x, kiln::Shape{9, 5}), b);
    for (const dist::IndexMap& map : row_and_block_maps({9, 5})) {
        if (std::any_of(map.begin(), map.end(), [](const dist::ShardIndex& entry) {
                return entry.ranges[1] != dist::AxisRange{0, 5};
            })) {
            continue;  // not row blocks
        }
        const dist::DistributedArray a =
            dist::distributed_array(std::span<const double>(x), {9, 5}, world_ranks().comms, map);
        EXPECT_EQ(dist::matmul(a, b).get<double>(), expected.get<double>());
    }
}

TEST(TwoRanksDistributedArray, RedistributionRoundTrips) {
    KILN_REQUIRE_TWO_RANKS();
    const kiln::Shape shape = {9, 5};
    const std::vector<double> x = sample(45, 1.0);
    const std::vector<dist::IndexMap> maps = row_and_block_maps(shape);
    for (std::size_t i = 0; i < maps.size(); ++i) {
        const dist::DistributedArray a = dist::distributed_array(std::span<const double>(x), shape,
                                                                 world_ranks().comms, maps[i]);
        for (std::size_t j = 0; j < maps.size(); ++j) {
            const dist::DistributedArray b = dist::redistribute(a, maps[j]);
            const std::string which = "map " + std::to_string(i) + " to map " + std::to_string(j);
            const ndarray whole = kiln::array(x, shape);
            for (const dist::Shard& shard : b.local_shards()) {
                const dist::ShardIndex& entry = maps[j][shard.index];
                const ndarray block =
                    whole[{kiln::Slice{entry.ranges[0].begin, entry.ranges[0].end},
                           kiln::Slice{entry.ranges[1].begin, entry.ranges[1].end}}];
                EXPECT_EQ(shard.array.get<double>(), block.copy().get<double>())
                    << which << ", shard " << shard.index;
            }
            EXPECT_EQ(dist::redistribute(b, maps[i]).get<double>(), x) << which << " and back";
        }
    }
}

TEST(TwoRanksDistributedArray, BlockProductMatchesOneDevice) {
    KILN_REQUIRE_TWO_RANKS();
    const auto& comms = world_ranks().comms;
    const std::vector<double> x = sample(45, 1.0);
    const std::vector<double> y = sample(20, 0.5);
    const ndarray expected =
        kiln::matmul(kiln::array(x, kiln::Shape{9, 5}), kiln::array(y, kiln::Shape{5, 4}));
    const dist::DistributedArray b = dist::distributed_array(
        std::span<const double>(y), {5, 4}, comms, dist::split_index_map({5, 4}, 2, 1));
    for (const dist::IndexMap& map : row_and_block_maps({9, 5})) {
        const dist::DistributedArray a =
            dist::distributed_array(std::span<const double>(x), {9, 5}, comms, map);
        EXPECT_EQ(dist::matmul(a, b, dist::split_index_map({9, 4}, 2)).get<double>(),
                  expected.get<double>());
    }
}

}  // namespace

namespace {

// Along the split axis 0 (a group spanning both processes) and the unsplit axis 1, against one
// device's reduction of the whole data: max and the arg-reductions exactly, sums within a few
// ulps of their magnitude (the partials add in another order).
void check_along_axes(const std::optional<dist::IndexMap>& map, const std::string& which) {
    const kiln::Shape shape = {9, 3};
    std::vector<double> x = sample(27, 1.0);
    x[3 * 7 + 1] = 50;  // a tie across the two ranks' rows: row 2 comes first
    x[3 * 2 + 1] = 50;
    const dist::DistributedArray a =
        dist::distributed_array(std::span<const double>(x), shape, world_ranks().comms, map);
    const ndarray ax = kiln::array(x, shape);
    for (const int axis : {0, 1}) {
        const std::string what = which + ", axis " + std::to_string(axis);
        EXPECT_EQ(dist::argmax(a, axis).get<std::int64_t>(),
                  kiln::argmax(ax, {.axis = axis}).get<std::int64_t>())
            << what;
        EXPECT_EQ(dist::max(a, axis).get<double>(), kiln::max(ax, axis).get<double>()) << what;
        const std::vector<double> sums = dist::sum(a, axis).get<double>();
        const std::vector<double> vars = dist::var(a, axis, 1).get<double>();
        const std::vector<double> want_sums = kiln::sum(ax, axis).get<double>();
        const std::vector<double> want_vars =
            kiln::var(ax, {.axis = axis, .ddof = 1}).get<double>();
        for (std::size_t i = 0; i < sums.size(); ++i) {
            EXPECT_NEAR(sums[i], want_sums[i], 1e-13 * 100) << what;
            EXPECT_NEAR(vars[i], want_vars[i], 1e-13 * 1000) << what;
        }
    }
}

}  // namespace

TEST(TwoRanksDistributedArray, ReductionsAlongTheSplitAxisMatchOneDevice) {
    KILN_REQUIRE_TWO_RANKS();
    check_along_axes(std::nullopt, "default split");
    check_along_axes(dist::IndexMap{{1, {{0, 5}, {0, 3}}}, {0, {{5, 9}, {0, 3}}}}, "rank 1 first");
    check_along_axes(dist::IndexMap{{0, {{0, 4}, {0, 3}}}, {0, {{4, 9}, {0, 3}}}},
                     "every shard on rank 0");
}

TEST(TwoRanksDistributedArray, ScatterFromOneRankSendsEachRankItsBlocks) {
    KILN_REQUIRE_TWO_RANKS();
    const auto& comms = world_ranks().comms;
    const int rank = comms->front().rank();
    const std::vector<double> x = sample(27, 1.0);
    // From rank 0's host buffer; rank 1 passes nothing.
    const std::span<const double> mine =
        rank == 0 ? std::span<const double>(x) : std::span<const double>();
    const dist::DistributedArray a = dist::scatter(mine, {9, 3}, 0, comms);
    ASSERT_EQ(a.local_shards().size(), 1U);
    const dist::AxisRange rows = a.index_map()[a.local_shards()[0].index].ranges[0];
    EXPECT_EQ(a.local_shards()[0].array.get<double>(),
              std::vector<double>(x.begin() + rows.begin * 3, x.begin() + rows.end * 3));
    EXPECT_EQ(a.get<double>(), x);
    // From rank 1's transposed (strided) ndarray; rank 0 passes ndarray(), and learns the shape
    // and dtype from the root.
    const ndarray transposed = kiln::array(x, kiln::Shape{9, 3}).transpose();
    const dist::DistributedArray b = dist::scatter(rank == 1 ? transposed : ndarray(), 1, comms,
                                                   dist::split_index_map({3, 9}, 2, 1));
    EXPECT_EQ(b.shape(), (kiln::Shape{3, 9}));
    EXPECT_EQ(b.dtype(), kiln::float64);
    EXPECT_EQ(b.get<double>(), transposed.copy().get<double>());
}

TEST(TwoRanksDistributedArray, ScatterErrorsReachEveryRank) {
    KILN_REQUIRE_TWO_RANKS();
    const auto& comms = world_ranks().comms;
    const int rank = comms->front().rank();
    const std::vector<double> x = sample(10, 1.0);
    // The root's buffer is too short: both ranks throw, the root saying why.
    const std::span<const double> short_buffer =
        rank == 0 ? std::span<const double>(x) : std::span<const double>();
    kiln::test::expect_error_naming(
        [&] {
            (void)dist::scatter(short_buffer, {4, 3}, 0, comms);
        },
        {"distributed.scatter", rank == 0 ? "'values' holds 10 elements" : "refused"});
    // Rank 1 names another shape: both throw, rank 1 naming the difference.
    const kiln::Shape shape = rank == 0 ? kiln::Shape{5, 2} : kiln::Shape{2, 5};
    kiln::test::expect_error_naming(
        [&] { (void)dist::scatter(std::span<const double>(x), shape, 0, comms); },
        {"distributed.scatter", rank == 1 ? "'shape' (2, 5)" : "differ from the root's"});
    kiln::test::expect_error_naming(
        [&] { (void)dist::scatter(std::span<const double>(x), {10}, 2, comms); },
        {"distributed.scatter", "'root' is 2"});
}
