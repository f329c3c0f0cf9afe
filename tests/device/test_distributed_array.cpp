// kiln::distributed::DistributedArray within one process: two ranks, one per device (the host
// backend's two host devices in CI). Every result is checked against the same computation on one
// device's ndarray, or against the host data it came from. Skips, saying why, without two devices
// or without the library of collectives. Across processes: tests/mpi/test_distributed_array.cpp.
#include "core/array/pending_array.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/distributed_ranks.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace {

namespace dist = kiln::distributed;
using dist::Communicator;
using dist::DistributedArray;
using kiln::Device;
using kiln::ndarray;

using kiln::test::two_ranks;

// 0.5, 1.5, ... with a sign that changes every third element: no two neighbours alike.
std::vector<double> sample(std::size_t n, double scale = 1) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = scale * (static_cast<double>(i % 17) + 0.5) * (i % 3 == 0 ? -1 : 1);
    }
    return v;
}

// The whole array on one device, the reference.
ndarray on_one_device(const std::vector<double>& values, const kiln::Shape& shape) {
    return kiln::array(values, shape);
}

DistributedArray sharded(const std::vector<double>& values, const kiln::Shape& shape,
                         const dist::Communicators& comms,
                         std::optional<dist::IndexMap> map = std::nullopt) {
    return dist::distributed_array(std::span<const double>(values), shape, comms, std::move(map));
}

TEST(DistributedArray, SplitIndexMapCutsAsArraySplit) {
    // numpy.array_split(range(10), 4): lengths 3, 3, 2, 2.
    const dist::IndexMap map = dist::split_index_map({10, 3}, 4);
    const std::vector<dist::AxisRange> rows = {{0, 3}, {3, 6}, {6, 8}, {8, 10}};
    ASSERT_EQ(map.size(), 4U);
    for (std::size_t r = 0; r < 4; ++r) {
        EXPECT_EQ(map[r].rank, static_cast<int>(r));
        EXPECT_EQ(map[r].ranges, (std::vector<dist::AxisRange>{rows[r], {0, 3}}));
    }
    const dist::IndexMap columns = dist::split_index_map({2, 5}, 2, -1);
    EXPECT_EQ(columns[1].ranges, (std::vector<dist::AxisRange>{{0, 2}, {3, 5}}));
    kiln::test::expect_error_naming([] { (void)dist::split_index_map({4}, 0); },
                                    {"split_index_map", "'ranks'", "at least 1"});
}

TEST(DistributedArray, ScattersAndGathersByTheDefaultSplit) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const std::vector<double> values = sample(35);
    const DistributedArray a = sharded(values, {7, 5}, comms);
    ASSERT_EQ(a.local_shards().size(), 2U);
    const std::vector<kiln::Shape> shapes = {{4, 5}, {3, 5}};
    for (std::size_t s = 0; s < 2; ++s) {
        const ndarray& shard = a.local_shards()[s].array;
        EXPECT_EQ(shard.device(), static_cast<int>(s));
        EXPECT_EQ(shard.shape(), shapes[s]);
        const std::vector<double> got = shard.get<double>();
        const std::vector<double> expected(values.begin() + static_cast<std::ptrdiff_t>(20 * s),
                                           values.begin() + static_cast<std::ptrdiff_t>(20 * s) +
                                               static_cast<std::ptrdiff_t>(got.size()));
        EXPECT_EQ(got, expected) << "shard " << s;
    }
    EXPECT_EQ(a.get<double>(), values);
    const ndarray whole = a.gather(Device(1));
    EXPECT_EQ(whole.device(), 1);
    EXPECT_EQ(whole.shape(), (kiln::Shape{7, 5}));
    EXPECT_EQ(whole.get<double>(), values);
    kiln::test::expect_error_naming([&] { (void)a.get<float>(); },
                                    {"DistributedArray.get", "float64", "float32"});
}

TEST(DistributedArray, TwoDimensionalBlocksFromAnArray) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    std::vector<std::int32_t> values(30);
    std::iota(values.begin(), values.end(), -7);
    const dist::IndexMap map =
        dist::make_2d_index_map({5, 6}, {0, 2, 5}, {0, 1, 6}, {{0, 1}, {1, 1}});
    const ndarray source = kiln::array(values, kiln::Shape{5, 6});
    const DistributedArray a = dist::distributed_array(source, comms, map);
    ASSERT_EQ(a.local_shards().size(), 4U);
    // Block (1, 1): rows 2..4, columns 1..5, on rank 1.
    const ndarray& block = a.local_shards()[3].array;
    EXPECT_EQ(block.device(), 1);
    const ndarray expected_block = source[{kiln::Slice{2, 5}, kiln::Slice{1, 6}}].copy();
    EXPECT_EQ(block.get<std::int32_t>(), expected_block.get<std::int32_t>());
    EXPECT_EQ(a.get<std::int32_t>(), values);
    EXPECT_EQ(a.gather(Device(0)).get<std::int32_t>(), values);
    const DistributedArray from_host =
        dist::distributed_array(std::span<const std::int32_t>(values), {5, 6}, comms, map);
    EXPECT_EQ(from_host.get<std::int32_t>(), values);
}

TEST(DistributedArray, ThreeDimensionalBlocksSplitAlongTheMiddleAxis) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    std::vector<std::int16_t> values(60);
    std::iota(values.begin(), values.end(), 0);
    const DistributedArray a =
        dist::distributed_array(std::span<const std::int16_t>(values), {3, 4, 5}, comms,
                                dist::split_index_map({3, 4, 5}, 2, 1));
    // Shard 1 is a[:, 2:4, :]: element (i, j, k) is 20 i + 5 j + k.
    std::vector<std::int16_t> expected;
    for (int i = 0; i < 3; ++i) {
        for (int j = 2; j < 4; ++j) {
            for (int k = 0; k < 5; ++k) {
                expected.push_back(static_cast<std::int16_t>(20 * i + 5 * j + k));
            }
        }
    }
    EXPECT_EQ(a.local_shards()[1].array.get<std::int16_t>(), expected);
    EXPECT_EQ(a.get<std::int16_t>(), values);
    // argmax and argmin map a shard's flat index through all three axes: (7 i + 30) mod 60 puts
    // 59 at i = 47 = (2, 1, 2), in shard 0, and 0 at i = 30 = (1, 2, 0), in shard 1.
    std::vector<std::int16_t> shuffled(60);
    for (std::size_t i = 0; i < shuffled.size(); ++i) {
        shuffled[i] = static_cast<std::int16_t>((7 * i + 30) % 60);
    }
    const DistributedArray b =
        dist::distributed_array(std::span<const std::int16_t>(shuffled), {3, 4, 5}, comms,
                                dist::split_index_map({3, 4, 5}, 2, 1));
    EXPECT_EQ(dist::argmax(b).item<std::int64_t>(), 47);
    EXPECT_EQ(dist::argmin(b).item<std::int64_t>(), 30);
}

TEST(DistributedArray, CreationFillsEveryShard) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    EXPECT_EQ(dist::zeros({5}, comms).get<double>(), std::vector<double>(5, 0.0));
    EXPECT_EQ(dist::ones({3, 3}, comms, kiln::int64).get<std::int64_t>(),
              std::vector<std::int64_t>(9, 1));
    const DistributedArray f = dist::full({4, 2}, 2.5, comms, kiln::float32);
    EXPECT_EQ(f.dtype(), kiln::float32);
    EXPECT_EQ(f.get<float>(), std::vector<float>(8, 2.5F));
    EXPECT_EQ(dist::full({3}, 7, comms).dtype(), kiln::int32);
    const DistributedArray e = dist::empty({9, 2}, comms, kiln::complex64);
    EXPECT_EQ(e.local_shards()[1].array.shape(), (kiln::Shape{4, 2}));
}

TEST(DistributedArray, BadIndexMapsAndDataAreNamed) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const std::vector<double> values = sample(6);
    kiln::test::expect_error_naming(
        [&] {
            (void)sharded(values, {6}, comms, dist::IndexMap{{0, {{0, 4}}}, {1, {{3, 6}}}});
        },
        {"distributed_array", "'index_map'", "shards 0 and 1 overlap"});
    kiln::test::expect_error_naming(
        [&] {
            (void)sharded(values, {6}, comms, dist::IndexMap{{0, {{0, 4}}}});
        },
        {"'index_map'", "covers 4 of the 6 elements"});
    kiln::test::expect_error_naming(
        [&] {
            (void)sharded(values, {6}, comms, dist::IndexMap{{2, {{0, 6}}}});
        },
        {"'index_map'", "rank 2", "2 ranks"});
    kiln::test::expect_error_naming([&] { (void)sharded(values, {7}, comms); },
                                    {"distributed_array", "'values'", "6 elements", "shape (7,)"});
}

TEST(DistributedArray, UfuncsAndOperatorsMatchOneDevice) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const kiln::Shape shape = {9, 4};
    const std::vector<double> x = sample(36);
    const std::vector<double> y = sample(36, 0.25);
    const DistributedArray a = sharded(x, shape, comms);
    const DistributedArray b = sharded(y, shape, comms);
    const ndarray ax = on_one_device(x, shape);
    const ndarray by = on_one_device(y, shape);
    EXPECT_EQ(((a - b) * (a - b)).get<double>(), ((ax - by) * (ax - by)).get<double>());
    EXPECT_EQ(dist::shardwise(kiln::add, a, b).get<double>(), kiln::add(ax, by).get<double>());
    EXPECT_EQ(dist::shardwise(kiln::power, a, 3.0).get<double>(),
              kiln::power(ax, 3.0).get<double>());
    EXPECT_EQ(dist::shardwise(kiln::sin, a).get<double>(), kiln::sin(ax).get<double>());
    EXPECT_EQ((2.0 / -a).get<double>(), (2.0 / -ax).get<double>());
    EXPECT_EQ((a < b).get<bool>(), (ax < by).get<bool>());
    EXPECT_EQ(dist::shardwise([](const ndarray& s) { return kiln::exp(-s); }, a).get<double>(),
              kiln::exp(-ax).get<double>());
    // A function that makes arrays makes them on the shard's device (the sum is the first
    // operand's).
    const DistributedArray offsets =
        dist::shardwise([](const ndarray& s) { return kiln::ones(s.shape()) + s; }, a);
    EXPECT_EQ(offsets.local_shards()[1].array.device(), 1);
    EXPECT_EQ(offsets.get<double>(), (ax + 1.0).get<double>());
    // NEP 50: an int32 array times a Python-like float is float64; times an int stays int32.
    const DistributedArray i = dist::full({5}, 3, comms);
    EXPECT_EQ((i * 2.5).dtype(), kiln::float64);
    EXPECT_EQ((i * 2).get<std::int32_t>(), std::vector<std::int32_t>(5, 6));
}

TEST(DistributedArray, MismatchedOperandsAreNamed) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const DistributedArray a = dist::zeros({6}, comms);
    kiln::test::expect_error_naming([&] { (void)(a + dist::zeros({7}, comms)); },
                                    {"shardwise", "operand 1", "shape (7,)", "(6,)"});
    const DistributedArray skewed =
        dist::zeros({6}, comms, kiln::float64, dist::IndexMap{{0, {{0, 2}}}, {1, {{2, 6}}}});
    kiln::test::expect_error_naming([&] { (void)(a * skewed); },
                                    {"shardwise", "another index map", "shard 0"});
    kiln::test::expect_error_naming([&] { (void)(a + dist::zeros({6}, two_ranks())); },
                                    {"shardwise", "other communicators"});
}

// Rank 1 holds two blocks and rank 0 one, so the partial results travel in two slots per rank.
dist::IndexMap uneven_rows() {
    return {{1, {{0, 2}, {0, 4}}}, {0, {{2, 7}, {0, 4}}}, {1, {{7, 9}, {0, 4}}}};
}

void expect_close(const ndarray& got, const ndarray& expected, const std::string& what) {
    ASSERT_EQ(got.dtype(), expected.dtype()) << what;
    ASSERT_EQ(got.shape(), expected.shape()) << what;
    const double want = expected.astype(kiln::float64).item<double>();
    EXPECT_NEAR(got.astype(kiln::float64).item<double>(), want, 1e-12 * std::abs(want)) << what;
}

TEST(DistributedArray, ReductionsOverEveryElementMatchOneDevice) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const kiln::Shape shape = {9, 4};
    const std::vector<double> x = sample(36);
    const ndarray ax = on_one_device(x, shape);
    for (const auto& map : {std::optional<dist::IndexMap>{}, std::optional(uneven_rows())}) {
        const DistributedArray a = sharded(x, shape, comms, map);
        const std::string which = map ? "uneven rows" : "default split";
        expect_close(dist::sum(a), kiln::sum(ax), "sum, " + which);
        expect_close(dist::max(a), kiln::max(ax), "max, " + which);
        expect_close(dist::min(a), kiln::min(ax), "min, " + which);
        expect_close(dist::mean(a), kiln::mean(ax), "mean, " + which);
        expect_close(dist::var(a), kiln::var(ax), "var, " + which);
        expect_close(dist::std(a, 1), kiln::std(ax, {.ddof = 1}), "std ddof 1, " + which);
        EXPECT_EQ(dist::sum(a).device(), 0);
    }
    // Integers: exact, in NumPy's dtypes (int32 sums to int64, means are float64).
    std::vector<std::int32_t> small(12);
    std::iota(small.begin(), small.end(), 1);
    const DistributedArray ints =
        dist::distributed_array(std::span<const std::int32_t>(small), {12}, comms);
    EXPECT_EQ(dist::prod(ints).dtype(), kiln::int64);
    EXPECT_EQ(dist::prod(ints).item<std::int64_t>(), 479001600);
    EXPECT_EQ(dist::sum(ints).item<std::int64_t>(), 78);
    EXPECT_EQ(dist::mean(ints).item<double>(), 6.5);
}

// Each reduction's partial results take the dtype its one-device form gives (NumPy's: bool and
// small integers sum in int64 or uint64, means of integers are float64, float16 stays float16,
// complex variances and norms are real), so the result's dtype and value are one device's.
TEST(DistributedArray, ReductionsOverEveryElementKeepOneDevicesDtype) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const kiln::Shape shape = {9, 4};
    std::vector<double> x(36);
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = static_cast<double>(i % 4) - 1.0;  // -1, 0, 1, 2: exact in every dtype below
    }
    using Whole = ndarray (*)(const ndarray&);
    using Distributed = ndarray (*)(const DistributedArray&);
    const std::vector<std::tuple<std::string, Whole, Distributed>> reductions = {
        {"sum", [](const ndarray& a) { return kiln::sum(a); }, &dist::sum},
        {"prod", [](const ndarray& a) { return kiln::prod(a); }, &dist::prod},
        {"mean", [](const ndarray& a) { return kiln::mean(a); }, &dist::mean},
        {"var", [](const ndarray& a) { return kiln::var(a); },
         [](const DistributedArray& a) { return dist::var(a); }},
        {"norm", [](const ndarray& a) { return kiln::linalg::norm(a); }, &dist::norm},
        {"max", [](const ndarray& a) { return kiln::max(a); }, &dist::max},
    };
    for (const kiln::DType dtype :
         {kiln::bool_, kiln::int8, kiln::uint16, kiln::float16, kiln::complex64}) {
        const ndarray whole = on_one_device(x, shape).astype(dtype);
        const DistributedArray a = dist::distributed_array(whole, comms);
        for (const auto& [name, one_device, distributed] : reductions) {
            if (dtype == kiln::complex64 && name == "max") {
                continue;
            }
            SCOPED_TRACE(name + " of " + std::string(kiln::name(dtype)));
            const ndarray want = one_device(whole);
            const ndarray got = distributed(a);
            ASSERT_EQ(got.dtype(), want.dtype());
            const auto value = [](const ndarray& r) {
                return kiln::real(r).astype(kiln::float64).item<double>();
            };
            EXPECT_NEAR(value(got), value(want), 1e-3 * (1.0 + std::abs(value(want))));
        }
    }
}

// A deferred shard-wise chain fuses into each shard's sum, in the mean's dtype: no shard's chain
// is computed on its own, and the mean is bitwise the one computed with lazy fusion off.
TEST(DistributedArray, MeanFusesEachShardsDeferredChain) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const kiln::Shape shape = {9, 4};
    for (const kiln::DType dtype : {kiln::float32, kiln::float64, kiln::int32}) {
        SCOPED_TRACE(std::string(kiln::name(dtype)));
        const DistributedArray a =
            dist::distributed_array(on_one_device(sample(36), shape).astype(dtype), comms);
        const DistributedArray b =
            dist::distributed_array(on_one_device(sample(36, 0.25), shape).astype(dtype), comms);
        const auto chain = [&] { return (a - b) * a; };
        ndarray eager;
        {
            const kiln::LazyFusionScope off(false);
            eager = dist::mean(chain());
        }
        const kiln::LazyFusionScope on(true);
        const DistributedArray c = chain();
        const ndarray lazy = dist::mean(c);
        // Before the result is read: reading synchronizes its stream, which runs what is deferred
        // there, the chain the caller still holds included.
        for (const auto& shard : c.local_shards()) {
            ASSERT_NE(shard.array.pending(), nullptr);
            EXPECT_FALSE(shard.array.pending()->evaluated()) << "shard " << shard.index;
        }
        ASSERT_EQ(lazy.dtype(), eager.dtype());
        EXPECT_EQ(lazy.astype(kiln::float64).item<double>(),
                  eager.astype(kiln::float64).item<double>());
    }
}

TEST(DistributedArray, ArgmaxIsTheFirstOccurrenceAcrossShards) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const kiln::Shape shape = {9, 4};
    std::vector<double> x = sample(36);
    // Ties in rank 1's first block (row 1) and rank 0's block (row 3): rank 0's partial comes first
    // in the gathered order, row 1 first in the array.
    x[4 * 3 + 2] = 100;
    x[4 * 1 + 3] = 100;
    x[4 * 7 + 0] = -100;
    x[4 * 5 + 1] = -100;
    const ndarray ax = on_one_device(x, shape);
    const DistributedArray a = sharded(x, shape, comms, uneven_rows());
    EXPECT_EQ(dist::argmax(a).item<std::int64_t>(), kiln::argmax(ax).item<std::int64_t>());
    EXPECT_EQ(dist::argmax(a).item<std::int64_t>(), 7);
    EXPECT_EQ(dist::argmin(a).item<std::int64_t>(), kiln::argmin(ax).item<std::int64_t>());
    EXPECT_EQ(dist::argmin(a).item<std::int64_t>(), 21);
    // NaN wins, its first occurrence.
    x[4 * 8 + 1] = std::nan("");
    x[4 * 4 + 2] = std::nan("");
    const ndarray with_nan = on_one_device(x, shape);
    const DistributedArray b = sharded(x, shape, comms, uneven_rows());
    EXPECT_EQ(dist::argmax(b).item<std::int64_t>(), kiln::argmax(with_nan).item<std::int64_t>());
    EXPECT_EQ(dist::argmin(b).item<std::int64_t>(), 18);
    EXPECT_TRUE(std::isnan(dist::max(b).item<double>()));
}

TEST(DistributedArray, NormAndAnEmptyShard) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const std::vector<double> x = sample(36);
    expect_close(dist::norm(sharded(x, {9, 4}, comms)),
                 kiln::linalg::norm(on_one_device(x, {9, 4})), "norm");
    std::vector<std::int32_t> ints = {3, -4};
    const DistributedArray i =
        dist::distributed_array(std::span<const std::int32_t>(ints), {2}, comms);
    EXPECT_EQ(dist::norm(i).dtype(), kiln::float64);
    EXPECT_EQ(dist::norm(i).item<double>(), 5.0);
    // One element over two ranks: rank 1's shard is empty and has no partial result.
    const std::vector<double> one = {-2.5};
    const DistributedArray single = sharded(one, {1}, comms);
    EXPECT_EQ(single.local_shards()[1].array.size(), 0);
    EXPECT_EQ(dist::max(single).item<double>(), -2.5);
    EXPECT_EQ(dist::argmin(single).item<std::int64_t>(), 0);
    EXPECT_EQ(dist::sum(single).item<double>(), -2.5);
    EXPECT_EQ(single.get<double>(), one);
}

TEST(DistributedArray, ReductionsAlongAnUnsplitAxisKeepThePartition) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const kiln::Shape shape = {9, 4};
    const std::vector<double> x = sample(36);
    const ndarray ax = on_one_device(x, shape);
    const DistributedArray a = sharded(x, shape, comms, uneven_rows());
    const DistributedArray sums = dist::sum(a, 1);
    EXPECT_EQ(sums.shape(), (kiln::Shape{9}));
    EXPECT_EQ(sums.index_map()[1].ranges, (std::vector<dist::AxisRange>{{2, 7}}));
    EXPECT_EQ(sums.get<double>(), kiln::sum(ax, 1).get<double>());
    EXPECT_EQ(dist::max(a, -1).get<double>(), kiln::max(ax, -1).get<double>());
    EXPECT_EQ(dist::mean(a, 1).get<double>(), kiln::mean(ax, 1).get<double>());
}

}  // namespace
