// matmul of a row-block distributed array by a replicated ndarray, within one process, two
// ranks: the product equals kiln::matmul's of the whole array on one device. The operands hold
// small integers, so every sum is exact whatever its order.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/distributed_ranks.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace {

namespace dist = kiln::distributed;
using kiln::test::two_ranks;

std::vector<double> small_integers(std::size_t n, int salt) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = static_cast<double>(static_cast<int>((i * 5 + static_cast<std::size_t>(salt)) % 11) -
                                   5);
    }
    return v;
}

// Rows [0, 2), [2, 3), [3, 3), [3, 7) on ranks 1, 0, 1, 0: uneven, one empty shard.
dist::IndexMap uneven_rows() {
    return {
        {1, {{0, 2}, {0, 5}}}, {0, {{2, 3}, {0, 5}}}, {1, {{3, 3}, {0, 5}}}, {0, {{3, 7}, {0, 5}}}};
}

TEST(DistributedMatmul, RowBlocksTimesAReplicatedMatrixMatchOneDevice) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const std::vector<double> a_values = small_integers(35, 1);
    const kiln::ndarray a_whole = kiln::array(a_values, kiln::Shape{7, 5});
    for (const auto& map : {dist::split_index_map({7, 5}, 2), uneven_rows()}) {
        const dist::DistributedArray a =
            dist::distributed_array(std::span<const double>(a_values), {7, 5}, comms, map);
        for (const int b_device : {0, 1}) {
            const kiln::DeviceGuard guard{kiln::Device(b_device)};
            const kiln::ndarray b = kiln::array(small_integers(15, 4), kiln::Shape{5, 3});
            const dist::DistributedArray c = dist::matmul(a, b);
            EXPECT_EQ(c.shape(), (kiln::Shape{7, 3}));
            ASSERT_EQ(c.index_map().size(), map.size());
            for (std::size_t s = 0; s < map.size(); ++s) {
                EXPECT_EQ(c.index_map()[s].rank, map[s].rank);
                EXPECT_EQ(c.index_map()[s].ranges,
                          (std::vector<dist::AxisRange>{map[s].ranges[0], {0, 3}}));
            }
            for (const dist::Shard& shard : c.local_shards()) {
                EXPECT_EQ(shard.array.device(), map[shard.index].rank);
            }
            const kiln::ndarray b_here = kiln::array(small_integers(15, 4), kiln::Shape{5, 3});
            EXPECT_EQ(c.get<double>(), kiln::matmul(a_whole, b_here).get<double>())
                << "b on device " << b_device;
        }
    }
}

TEST(DistributedMatmul, ByAVectorAndInIntegers) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const std::vector<double> a_values = small_integers(35, 2);
    const dist::DistributedArray a =
        dist::distributed_array(std::span<const double>(a_values), {7, 5}, comms, uneven_rows());
    const kiln::ndarray v = kiln::array(small_integers(5, 3));
    const dist::DistributedArray av = dist::matmul(a, v);
    EXPECT_EQ(av.shape(), (kiln::Shape{7}));
    EXPECT_EQ(av.get<double>(),
              kiln::matmul(kiln::array(a_values, kiln::Shape{7, 5}), v).get<double>());

    std::vector<std::int32_t> ints(12);
    for (std::size_t i = 0; i < ints.size(); ++i) {
        ints[i] = static_cast<std::int32_t>(i) - 6;
    }
    const dist::DistributedArray ai =
        dist::distributed_array(std::span<const std::int32_t>(ints), {4, 3}, comms);
    const kiln::ndarray bi = kiln::array(ints, kiln::Shape{3, 4});
    const dist::DistributedArray ci = dist::matmul(ai, bi);
    const kiln::ndarray expected = kiln::matmul(kiln::array(ints, kiln::Shape{4, 3}), bi);
    EXPECT_EQ(ci.dtype(), expected.dtype());
    EXPECT_EQ(ci.get<std::int32_t>(), expected.get<std::int32_t>());
}

TEST(DistributedMatmul, OperandsThatDoNotFitAreNamed) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const dist::DistributedArray rows = dist::ones({6, 4}, comms);
    kiln::test::expect_error_naming(
        [&] {
            (void)dist::matmul(rows, kiln::ones({5, 2}));
        },
        {"distributed.matmul", "'a'", "4 columns", "'b'", "5 rows"});
    const dist::DistributedArray columns =
        dist::ones({6, 4}, comms, kiln::float64, dist::split_index_map({6, 4}, 2, 1));
    kiln::test::expect_error_naming(
        [&] {
            (void)dist::matmul(columns, kiln::ones({4, 2}));
        },
        {"distributed.matmul", "'a'", "shard 0", "splits axis 1"});
    kiln::test::expect_error_naming(
        [&] { (void)dist::matmul(dist::ones({6}, comms), kiln::ones({6})); },
        {"distributed.matmul", "'a'", "1 axes", "2-D"});
}

// a and b distributed by `a_map` and `b_map`, their product against one device's, exactly.
void expect_block_product(const dist::Communicators& comms, const dist::IndexMap& a_map,
                          const dist::IndexMap& b_map, const std::optional<dist::IndexMap>& c_map,
                          const dist::IndexMap& expected_map, const std::string& what) {
    const std::vector<double> x = small_integers(30, 1);
    const std::vector<double> y = small_integers(20, 6);
    const dist::DistributedArray a =
        dist::distributed_array(std::span<const double>(x), {6, 5}, comms, a_map);
    const dist::DistributedArray b =
        dist::distributed_array(std::span<const double>(y), {5, 4}, comms, b_map);
    const dist::DistributedArray c = dist::matmul(a, b, c_map);
    EXPECT_EQ(c.index_map(), expected_map) << what;
    for (const dist::Shard& shard : c.local_shards()) {
        EXPECT_EQ(shard.array.device(), expected_map[shard.index].rank) << what;
    }
    const kiln::ndarray expected =
        kiln::matmul(kiln::array(x, kiln::Shape{6, 5}), kiln::array(y, kiln::Shape{5, 4}));
    EXPECT_EQ(c.get<double>(), expected.get<double>()) << what;
}

TEST(DistributedMatmul, BlockProductsMatchOneDevice) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    // Panels at 1, 3: a's column cut and b's row cut differ.
    const dist::IndexMap a_blocks =
        dist::make_2d_index_map({6, 5}, {0, 2, 6}, {0, 3, 5}, {{0, 1}, {1, 0}});
    const dist::IndexMap b_blocks =
        dist::make_2d_index_map({5, 4}, {0, 1, 5}, {0, 2, 4}, {{1, 0}, {0, 1}});
    expect_block_product(comms, a_blocks, b_blocks, std::nullopt,
                         dist::make_2d_index_map({6, 4}, {0, 2, 6}, {0, 2, 4}, {{0, 1}, {1, 0}}),
                         "2-D blocks, the default map");
    const dist::IndexMap columns = dist::split_index_map({6, 4}, 2, 1);
    expect_block_product(comms, a_blocks, dist::split_index_map({5, 4}, 2), columns, columns,
                         "2-D blocks by row blocks, into column blocks");
    expect_block_product(comms, dist::split_index_map({6, 5}, 2), dist::split_index_map({5, 4}, 2),
                         std::nullopt, dist::split_index_map({6, 4}, 2), "row blocks");
}

TEST(DistributedMatmul, BlockOperandsThatDoNotFitAreNamed) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const dist::DistributedArray a = dist::ones({6, 5}, comms);
    kiln::test::expect_error_naming(
        [&] {
            (void)dist::matmul(a, dist::ones({4, 4}, comms));
        },
        {"distributed.matmul", "5 columns", "4 rows"});
    kiln::test::expect_error_naming(
        [&] {
            (void)dist::matmul(a, dist::ones({5, 4}, two_ranks()));
        },
        {"distributed.matmul", "different communicators"});
    const dist::DistributedArray b_columns =
        dist::ones({5, 4}, comms, kiln::float64, dist::split_index_map({5, 4}, 2, 1));
    kiln::test::expect_error_naming(
        [&] { (void)dist::matmul(a, b_columns); },
        {"distributed.matmul", "'a' has 1 column blocks", "'b' 2", "'index_map'"});
    const dist::DistributedArray b_not_a_grid = dist::ones(
        {5, 4}, comms, kiln::float64,
        dist::IndexMap{{0, {{0, 2}, {0, 4}}}, {1, {{2, 5}, {0, 1}}}, {0, {{2, 5}, {1, 4}}}});
    kiln::test::expect_error_naming([&] { (void)dist::matmul(a, b_not_a_grid); },
                                    {"distributed.matmul", "not a grid", "'index_map'"});
    kiln::test::expect_error_naming(
        [&] {
            (void)dist::matmul(a, b_columns, dist::split_index_map({6, 3}, 2));
        },
        {"distributed.matmul", "'index_map'", "covers 18 of the 24"});
}

}  // namespace
