// redistribute within one process, two ranks: round trips between even, uneven (with an empty
// shard and a rank holding two), 2-D and column maps. Every shard of the result is checked
// against the block of the host data its map entry names.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/distributed_ranks.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace {

namespace dist = kiln::distributed;
using kiln::test::two_ranks;

const kiln::Shape shape = {9, 6};

std::vector<std::int64_t> sample() {
    std::vector<std::int64_t> v(54);
    for (std::size_t i = 0; i < v.size(); ++i) {
        v[i] = static_cast<std::int64_t>(i * 7 % 54) - 20;
    }
    return v;
}

struct NamedMap {
    std::string name;
    dist::IndexMap map;
};

std::vector<NamedMap> maps() {
    return {
        {"even rows", dist::split_index_map(shape, 2)},
        {"uneven rows",
         {{1, {{0, 0}, {0, 6}}},
          {0, {{0, 4}, {0, 6}}},
          {1, {{4, 5}, {0, 6}}},
          {0, {{5, 9}, {0, 6}}}}},
        {"2-D", dist::make_2d_index_map(shape, {0, 2, 9}, {0, 4, 6}, {{1, 0}, {0, 1}})},
        {"columns", dist::split_index_map(shape, 2, 1)},
    };
}

// Every local shard of `a` holds the block of `values` its map entry names, on its rank's device.
void expect_blocks(const dist::DistributedArray& a, const std::vector<std::int64_t>& values,
                   const std::string& what) {
    const kiln::ndarray whole = kiln::array(values, shape);
    for (const dist::Shard& shard : a.local_shards()) {
        const dist::ShardIndex& entry = a.index_map()[shard.index];
        EXPECT_EQ(shard.array.device(), entry.rank) << what;
        const kiln::ndarray block = whole[{kiln::Slice{entry.ranges[0].begin, entry.ranges[0].end},
                                           kiln::Slice{entry.ranges[1].begin, entry.ranges[1].end}}]
                                        .copy();
        EXPECT_EQ(shard.array.get<std::int64_t>(), block.get<std::int64_t>())
            << what << ", shard " << shard.index;
    }
    EXPECT_EQ(a.get<std::int64_t>(), values) << what;
}

TEST(DistributedRedistribute, RoundTripsBetweenEveryPairOfMaps) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const std::vector<std::int64_t> values = sample();
    for (const NamedMap& from : maps()) {
        const dist::DistributedArray a =
            dist::distributed_array(std::span<const std::int64_t>(values), shape, comms, from.map);
        for (const NamedMap& to : maps()) {
            const std::string what = from.name + " to " + to.name;
            const dist::DistributedArray b = dist::redistribute(a, to.map);
            EXPECT_EQ(b.index_map(), to.map) << what;
            EXPECT_EQ(b.dtype(), kiln::int64) << what;
            expect_blocks(b, values, what);
            expect_blocks(dist::redistribute(b, from.map), values, what + " and back");
        }
    }
}

TEST(DistributedRedistribute, IgnoresGhostRows) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const std::vector<std::int64_t> values = sample();
    dist::DistributedArray a = dist::with_halo(
        dist::distributed_array(std::span<const std::int64_t>(values), shape, comms), 1);
    dist::exchange_halos(a);
    const dist::DistributedArray b = dist::redistribute(a, maps()[2].map);
    EXPECT_EQ(b.halo(), 0);
    expect_blocks(b, values, "from ghost rows to 2-D");
}

TEST(DistributedRedistribute, AMapThatDoesNotFitIsNamed) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const dist::DistributedArray a = dist::zeros(shape, comms);
    kiln::test::expect_error_naming(
        [&] {
            (void)dist::redistribute(a, dist::split_index_map({9, 5}, 2));
        },
        {"distributed.redistribute", "'index_map'", "covers 45 of the 54"});
    kiln::test::expect_error_naming(
        [&] { (void)dist::redistribute(a, dist::split_index_map(shape, 3)); },
        {"distributed.redistribute", "'index_map'", "rank 2"});
}

}  // namespace
