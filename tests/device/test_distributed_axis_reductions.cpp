// Reductions of a distributed array along one axis, split or not, within one process: two ranks
// on devices 0 and 1 (the host backend's two host devices in CI). Every result is checked
// against the same reduction of the whole array on one device: exactly for integers, bool,
// max, min and the arg-reductions; float sums, means, variances and norms within a bound from
// the dtype (the partial sums add in another order), and the result's partition against the
// documented one (a group's block on the rank of its first shard).
#include "tests/support/backend_under_test.hpp"
#include "tests/support/distributed_ranks.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <string>
#include <vector>

namespace {

namespace dist = kiln::distributed;
using dist::DistributedArray;
using kiln::Device;
using kiln::ndarray;

using kiln::test::two_ranks;

// Values with no two neighbours alike and both signs.
std::vector<double> sample(std::size_t n) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = (static_cast<double>((i * 7) % 19) + 0.25) * (i % 3 == 0 ? -1 : 1);
    }
    return v;
}

// Rows 0..1 on rank 1, 2..6 on rank 0, 7..8 on rank 1: the axis's blocks out of rank order.
dist::IndexMap uneven_rows() {
    return {{1, {{0, 2}, {0, 4}}}, {0, {{2, 7}, {0, 4}}}, {1, {{7, 9}, {0, 4}}}};
}

// 2 x 2 blocks of a 9 x 4 array: rows cut at 4, columns at 1.
dist::IndexMap blocks() {
    return dist::make_2d_index_map({9, 4}, {0, 4, 9}, {0, 1, 4}, {{0, 1}, {1, 0}});
}

// `got` has `expected`'s dtype and shape, and its values within `tolerance` times the largest
// magnitude of `scale` (exactly when 0).
void expect_matches(const DistributedArray& got, const ndarray& expected, double tolerance,
                    double scale, const std::string& what) {
    ASSERT_EQ(got.dtype(), expected.dtype()) << what;
    ASSERT_EQ(got.shape(), expected.shape()) << what;
    const std::vector<double> g = got.gather(Device(0)).astype(kiln::float64).get<double>();
    const std::vector<double> e = expected.astype(kiln::float64).get<double>();
    for (std::size_t i = 0; i < e.size(); ++i) {
        if (std::isnan(e[i])) {
            EXPECT_TRUE(std::isnan(g[i])) << what << " at " << i;
        } else {
            EXPECT_NEAR(g[i], e[i], tolerance * scale) << what << " at " << i;
        }
    }
}

void expect_exact(const DistributedArray& got, const ndarray& expected, const std::string& what) {
    expect_matches(got, expected, 0, 0, what);
}

// Every reduction of `x` (9 x 4 float64) sharded by `map`, along both axes, against one device.
void check_every_reduction(const dist::Communicators& comms, const std::vector<double>& x,
                           const dist::IndexMap& map, const std::string& which) {
    const ndarray ax = kiln::array(x, kiln::Shape{9, 4});
    const DistributedArray a = dist::distributed_array(ax, comms, map);
    // float64 sums of at most 9 terms of magnitude < 20: a few ulps of 9 * 20.
    const double eps = std::numeric_limits<double>::epsilon();
    const double bound = 16 * eps;
    for (const std::int64_t axis : {0, 1, -2}) {
        const std::string what = which + ", axis " + std::to_string(axis);
        const int along = static_cast<int>(axis);
        expect_matches(dist::sum(a, axis), kiln::sum(ax, along), bound, 180, "sum, " + what);
        expect_matches(dist::mean(a, axis), kiln::mean(ax, along), bound, 20, "mean, " + what);
        expect_matches(dist::prod(a, axis), kiln::prod(ax, along), bound,
                       kiln::max(kiln::absolute(kiln::prod(ax, along))).item<double>(),
                       "prod, " + what);
        expect_exact(dist::max(a, axis), kiln::max(ax, along), "max, " + what);
        expect_exact(dist::min(a, axis), kiln::min(ax, along), "min, " + what);
        expect_exact(dist::argmax(a, axis), kiln::argmax(ax, {.axis = along}), "argmax, " + what);
        expect_exact(dist::argmin(a, axis), kiln::argmin(ax, {.axis = along}), "argmin, " + what);
        expect_matches(dist::var(a, axis, 0), kiln::var(ax, {.axis = along}), bound, 400,
                       "var, " + what);
        expect_matches(dist::std(a, axis, 1), kiln::std(ax, {.axis = along, .ddof = 1}), bound, 20,
                       "std ddof 1, " + what);
        expect_matches(dist::norm(a, axis), kiln::linalg::norm(ax, {.axis = along}), bound, 60,
                       "norm, " + what);
    }
}

TEST(DistributedAxisReductions, EveryReductionAlongSplitAndUnsplitAxesMatchesOneDevice) {
    KILN_REQUIRE_DEVICE();
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const std::vector<double> x = sample(36);
    check_every_reduction(comms, x, dist::split_index_map({9, 4}, 2), "rows split");
    check_every_reduction(comms, x, dist::split_index_map({9, 4}, 2, 1), "columns split");
    check_every_reduction(comms, x, uneven_rows(), "uneven rows");
    check_every_reduction(comms, x, blocks(), "2-D blocks");
}

TEST(DistributedAxisReductions, AGroupsResultLivesOnTheRankOfItsFirstShard) {
    KILN_REQUIRE_DEVICE();
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const std::vector<double> x = sample(36);
    const DistributedArray a =
        dist::distributed_array(kiln::array(x, kiln::Shape{9, 4}), comms, blocks());
    // Down the rows: column block 0 (shards 0 and 2, ranks 0 and 1) on rank 0, column block 1
    // (ranks 1 and 0) on rank 1.
    const DistributedArray down = dist::sum(a, 0);
    ASSERT_EQ(down.index_map().size(), 2U);
    EXPECT_EQ(down.index_map()[0], (dist::ShardIndex{0, {{0, 1}}}));
    EXPECT_EQ(down.index_map()[1], (dist::ShardIndex{1, {{1, 4}}}));
    ASSERT_EQ(down.local_shards().size(), 2U);
    EXPECT_EQ(down.local_shards()[1].array.device(), 1);
    // Along the rows of uneven_rows (unsplit): the partition of the rows, unchanged.
    const DistributedArray across = dist::max(
        dist::distributed_array(kiln::array(x, kiln::Shape{9, 4}), comms, uneven_rows()), 1);
    EXPECT_EQ(across.index_map()[1], (dist::ShardIndex{0, {{2, 7}}}));
    // Down uneven_rows: one group, on rank 1 (its first shard's), rank 0 holding nothing.
    const DistributedArray column_max = dist::max(
        dist::distributed_array(kiln::array(x, kiln::Shape{9, 4}), comms, uneven_rows()), 0);
    ASSERT_EQ(column_max.index_map().size(), 1U);
    EXPECT_EQ(column_max.index_map()[0].rank, 1);
}

TEST(DistributedAxisReductions, IntegersAndBoolAreExactInNumPysDtypes) {
    KILN_REQUIRE_DEVICE();
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    std::vector<std::int32_t> values(36);
    std::iota(values.begin(), values.end(), -17);
    const ndarray ints = kiln::array(values, kiln::Shape{9, 4});
    const DistributedArray a = dist::distributed_array(ints, comms, uneven_rows());
    expect_exact(dist::sum(a, 0), kiln::sum(ints, 0), "int32 sum (int64)");
    expect_exact(dist::prod(a, 0), kiln::prod(ints, 0), "int32 prod (int64)");
    expect_exact(dist::max(a, 0), kiln::max(ints, 0), "int32 max");
    EXPECT_EQ(dist::mean(a, 0).dtype(), kiln::float64);
    expect_exact(dist::mean(a, 0), kiln::mean(ints, 0), "int32 mean (float64)");
    const ndarray flags = kiln::greater(ints, 3);
    const DistributedArray b = dist::distributed_array(flags, comms, blocks());
    expect_exact(dist::sum(b, 0), kiln::sum(flags, 0), "bool sum (int64)");
    expect_exact(dist::max(b, 0), kiln::max(flags, 0), "bool max");
    expect_exact(dist::argmax(b, 0), kiln::argmax(flags, {.axis = 0}), "bool argmax");
}

TEST(DistributedAxisReductions, Float32SumsStayWithinTheirRounding) {
    KILN_REQUIRE_DEVICE();
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const std::vector<double> x = sample(4000);
    const ndarray ax = kiln::array(x, kiln::Shape{1000, 4}).astype(kiln::float32);
    const DistributedArray a = dist::distributed_array(ax, comms);
    // 1000 terms below 20 in float32: any order of adding is within n * eps * sum of |x|.
    const double bound = 1000 * std::numeric_limits<float>::epsilon();
    expect_matches(dist::sum(a, 0), kiln::sum(ax, 0), bound, 20000, "float32 sum");
    expect_matches(dist::mean(a, 0), kiln::mean(ax, 0), bound, 20, "float32 mean");
    expect_matches(dist::var(a, 0, 0), kiln::var(ax, {.axis = 0}), bound, 400, "float32 var");
}

TEST(DistributedAxisReductions, TiesAndNaNPickTheLowestIndexAcrossShards) {
    KILN_REQUIRE_DEVICE();
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    std::vector<double> x = sample(36);
    // Column 0: the largest value in rows 8 (shard 2) and 3 (shard 1): row 3 wins, though
    // shard 2 comes first on rank 1. Column 2: a NaN in rows 7 and 5.
    x[4 * 8 + 0] = 100;
    x[4 * 3 + 0] = 100;
    x[4 * 1 + 0] = -100;
    x[4 * 6 + 0] = -100;
    x[4 * 7 + 2] = std::nan("");
    x[4 * 5 + 2] = std::nan("");
    const ndarray ax = kiln::array(x, kiln::Shape{9, 4});
    const DistributedArray a = dist::distributed_array(ax, comms, uneven_rows());
    const std::vector<std::int64_t> argmax = dist::argmax(a, 0).get<std::int64_t>();
    EXPECT_EQ(argmax, kiln::argmax(ax, {.axis = 0}).get<std::int64_t>());
    EXPECT_EQ(argmax[0], 3);
    EXPECT_EQ(argmax[2], 5);
    const std::vector<std::int64_t> argmin = dist::argmin(a, 0).get<std::int64_t>();
    EXPECT_EQ(argmin[0], 1);
    EXPECT_EQ(argmin[2], 5);
    EXPECT_TRUE(std::isnan(dist::max(a, 0).get<double>()[2]));
    EXPECT_TRUE(std::isnan(dist::min(a, 0).get<double>()[2]));
}

TEST(DistributedAxisReductions, BadAxesAndMisalignedBlocksAreNamed) {
    KILN_REQUIRE_DEVICE();
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const std::vector<double> x = sample(8);
    const ndarray ax = kiln::array(x, kiln::Shape{2, 4});
    const DistributedArray a = dist::distributed_array(ax, comms);
    kiln::test::expect_error_naming([&] { (void)dist::argmax(a, 2); },
                                    {"distributed.argmax", "'axis'", "out of bounds"});
    // Bricks: row 0 whole on rank 0, row 1 cut in two: column blocks that do not line up.
    const dist::IndexMap bricks = {
        {0, {{0, 1}, {0, 4}}}, {1, {{1, 2}, {0, 2}}}, {0, {{1, 2}, {2, 4}}}};
    const DistributedArray b = dist::distributed_array(ax, comms, bricks);
    kiln::test::expect_error_naming([&] { (void)dist::sum(b, 0); },
                                    {"distributed.sum", "'axis'", "overlap", "redistribute"});
    // Along the axis the bricks do line up in: fine.
    expect_exact(dist::max(b, 1), kiln::max(ax, 1), "max along the bricks' rows");
}

}  // namespace
