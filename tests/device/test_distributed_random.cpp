// kiln::distributed::random within one process, two ranks: every draw equals, bit for bit,
// kiln::random's on one device for the same seed, whatever the partition.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/distributed_ranks.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace dist = kiln::distributed;
using kiln::test::two_ranks;

// The partitions tried: the even split, an uneven one with rank 0 holding two blocks, 2-D blocks,
// and 3-D blocks cut along the two last axes (several slabs a shard).
struct Partition {
    std::string name;
    kiln::Shape shape;
    std::optional<dist::IndexMap> map;
};

std::vector<Partition> partitions() {
    return {
        {"even", {10, 7}, std::nullopt},
        {"uneven",
         {9, 4},
         dist::IndexMap{{0, {{0, 1}, {0, 4}}}, {1, {{1, 7}, {0, 4}}}, {0, {{7, 9}, {0, 4}}}}},
        {"2-D", {5, 6}, dist::make_2d_index_map({5, 6}, {0, 2, 5}, {0, 1, 6}, {{0, 1}, {1, 0}})},
        {"3-D",
         {3, 4, 5},
         dist::IndexMap{{1, {{0, 3}, {0, 2}, {0, 3}}},
                        {0, {{0, 3}, {0, 2}, {3, 5}}},
                        {0, {{0, 3}, {2, 4}, {0, 3}}},
                        {1, {{0, 3}, {2, 4}, {3, 5}}}}},
        {"columns", {4, 9}, dist::split_index_map({4, 9}, 2, 1)},
    };
}

template <class T>
void expect_bitwise(const dist::DistributedArray& got, const kiln::ndarray& expected,
                    const std::string& what) {
    ASSERT_EQ(got.dtype(), expected.dtype()) << what;
    ASSERT_EQ(got.shape(), expected.shape()) << what;
    const std::vector<T> values = got.get<T>();
    const std::vector<T> want = expected.get<T>();
    ASSERT_EQ(values.size(), want.size()) << what;
    for (std::size_t i = 0; i < values.size(); ++i) {
        ASSERT_EQ(std::memcmp(&values[i], &want[i], sizeof(T)), 0) << what << ", element " << i;
    }
}

TEST(DistributedRandom, UniformMatchesOneDeviceWhateverThePartition) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    for (const Partition& p : partitions()) {
        const kiln::ndarray one = kiln::random::uniform(p.shape, -2.0, 3.0, 1234);
        expect_bitwise<double>(
            dist::random::uniform(p.shape, comms, -2.0, 3.0, 1234, kiln::float64, p.map), one,
            p.name + " uniform float64");
        const kiln::ndarray single = kiln::random::uniform(p.shape, 0.0, 1.0, 7, kiln::float32);
        expect_bitwise<float>(
            dist::random::uniform(p.shape, comms, 0.0, 1.0, 7, kiln::float32, p.map), single,
            p.name + " uniform float32");
    }
}

TEST(DistributedRandom, NormalAndIntegersMatchOneDeviceWhateverThePartition) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    for (const Partition& p : partitions()) {
        expect_bitwise<double>(
            dist::random::normal(p.shape, comms, 1.5, 0.25, 99, kiln::float64, p.map),
            kiln::random::normal(p.shape, 1.5, 0.25, 99), p.name + " normal");
        expect_bitwise<std::int32_t>(
            dist::random::integers(p.shape, comms, -50, 1000, 5, kiln::int32, p.map),
            kiln::random::integers(p.shape, -50, 1000, 5, kiln::int32), p.name + " integers");
    }
}

TEST(DistributedRandom, AnotherSeedGivesOtherNumbers) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const std::vector<double> a = dist::random::uniform({6, 3}, comms, 0, 1, 1).get<double>();
    const std::vector<double> b = dist::random::uniform({6, 3}, comms, 0, 1, 2).get<double>();
    EXPECT_NE(a, b);
}

TEST(DistributedRandom, BadArgumentsAreNamed) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    kiln::test::expect_error_naming(
        [&] { (void)dist::random::uniform({4}, comms, 0, 1, 0, kiln::int32); },
        {"distributed.random.uniform", "int32"});
    kiln::test::expect_error_naming([&] { (void)dist::random::uniform({4}, comms, 2.0, 1.0); },
                                    {"distributed.random.uniform"});
    kiln::test::expect_error_naming(
        [&] { (void)dist::random::integers({4}, comms, 0, 300, 0, kiln::int8); },
        {"distributed.random.integers", "int8"});
    kiln::test::expect_error_naming(
        [&] {
            (void)dist::random::normal({4}, comms, 0, 1, 0, kiln::float64,
                                       dist::IndexMap{{0, {{0, 3}}}});
        },
        {"random.normal"});
}

}  // namespace
