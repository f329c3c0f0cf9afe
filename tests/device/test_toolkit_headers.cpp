// Raw kernels that include the vendor toolkit's headers, run on a GPU and checked against closed
// forms: a grid-wide sum through cooperative groups, CUB block sums, fp16 arithmetic on values
// that half precision holds exactly, and complex arithmetic.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/toolkit_kernels.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

using kiln::Dim3;
using kiln::ndarray;

TEST(ToolkitHeaders, GridSyncThroughCooperativeGroupsSumsTheWholeGrid) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_ON_HOST(kiln::test::vendor_headers);
    if (kiln::test::is_amd()) {
        GTEST_SKIP() << "HIP 5's HIPRTC cannot compile hip/hip_cooperative_groups.h, and its "
                        "runtime cannot launch run-time compiled kernels cooperatively";
    }
    if (kiln::test::is_hip()) {
        GTEST_SKIP() << "HIP 5.2's runtime cannot launch run-time compiled kernels cooperatively "
                        "(on HIP's NVIDIA platform too)";
    }
    const kiln::RawKernel grid_sum(kiln::test::grid_sum_source, "grid_sum");
    const unsigned requested = 4096;
    const unsigned threads = 256;
    const unsigned n = 10'000'019;
    ndarray partial = kiln::zeros({requested}, kiln::uint64);
    ndarray neighbour = kiln::zeros({requested}, kiln::uint64);
    ndarray total = kiln::zeros({1}, kiln::uint64);
    ndarray blocks = kiln::zeros({1}, kiln::uint32);
    // The cooperative launch clamps the grid to the blocks that fit on the device at once.
    grid_sum(Dim3{requested}, Dim3{threads}, {partial, neighbour, total, blocks, n},
             {.cooperative = true});

    const std::uint32_t grid = blocks.get<std::uint32_t>()[0];
    ASSERT_GT(grid, 1U) << "one block would not test the grid barrier";
    ASSERT_LE(grid, requested);
    std::vector<std::uint64_t> expected(grid, 0);
    const std::uint64_t stride = std::uint64_t{grid} * threads;
    for (std::uint64_t i = 0; i < n; ++i) {
        expected[(i % stride) / threads] += i + 1;
    }
    EXPECT_EQ(total.get<std::uint64_t>()[0], std::uint64_t{n} * (n + 1ULL) / 2);
    const auto partials = partial.get<std::uint64_t>();
    const auto neighbours = neighbour.get<std::uint64_t>();
    int mismatches = 0;
    for (std::uint32_t b = 0; b < grid; ++b) {
        mismatches += partials[b] != expected[b] ? 1 : 0;
        mismatches += neighbours[b] != expected[(b + 1) % grid] ? 1 : 0;
    }
    EXPECT_EQ(mismatches, 0) << "of " << grid << " blocks";
}

TEST(ToolkitHeaders, CubBlockReductionGivesEachBlocksSum) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_ON_HOST(kiln::test::vendor_headers);
    if (kiln::test::is_amd()) {
        GTEST_SKIP() << "CUB is CUDA's; its HIP counterpart, hipCUB, is not tested";
    }
    const kiln::RawKernel block_sums(kiln::test::cub_block_sums_source, "block_sums");
    const int n = 3906 * 256 + 3;  // the last block holds 3 values
    const int blocks = (n + 255) / 256;
    const ndarray x = kiln::arange(std::int64_t{1}, n + 1, 1, kiln::int32);
    ndarray sums = kiln::empty({blocks}, kiln::int64);
    block_sums(Dim3{static_cast<unsigned>(blocks)}, Dim3{256}, {x, sums, n});

    const auto values = sums.get<std::int64_t>();
    // Block b holds lo + 1 .. hi: its sum is hi(hi + 1)/2 - lo(lo + 1)/2.
    int mismatches = 0;
    std::int64_t total = 0;
    for (std::int64_t b = 0; b < blocks; ++b) {
        const std::int64_t lo = b * 256;
        const std::int64_t hi = std::min<std::int64_t>(lo + 256, n);
        mismatches += values[b] != (hi * (hi + 1) - lo * (lo + 1)) / 2 ? 1 : 0;
        total += values[b];
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_EQ(values.back(), 3LL * n - 3);  // (n - 2) + (n - 1) + n
    EXPECT_EQ(total, std::int64_t{n} * (n + 1) / 2);
}

// a = (i - 32) / 4 and b = (i mod 8) / 2 are exact in half precision, and so is every step of
// a * b + a - b and (a * b - a) / 2 (multiples of 1/16 below 64 need at most 11 bits), so the
// GPU must match the host's double arithmetic exactly.
TEST(ToolkitHeaders, HalfArithmeticIsExactOnRepresentableValues) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_ON_HOST(kiln::test::vendor_headers);
    const kiln::RawKernel half_math(kiln::test::half_math_source, "half_math");
    const int n = 64;
    std::vector<float> a(n);
    std::vector<float> b(n);
    for (int i = 0; i < n; ++i) {
        a[i] = static_cast<float>(i - 32) / 4.0F;
        b[i] = static_cast<float>(i % 8) / 2.0F;
    }
    const ndarray da = kiln::array(a);
    const ndarray db = kiln::array(b);
    ndarray sum = kiln::empty({n}, kiln::float32);
    ndarray fused = kiln::empty({n}, kiln::float32);
    half_math(Dim3{1}, Dim3{64}, {da, db, sum, fused, n});

    const auto sums = sum.get<float>();
    const auto fuseds = fused.get<float>();
    for (int i = 0; i < n; ++i) {
        const double x = a[i];
        const double y = b[i];
        EXPECT_EQ(sums[i], x * y + x - y) << "a = " << x << ", b = " << y;
        EXPECT_EQ(fuseds[i], (x * y - x) / 2) << "a = " << x << ", b = " << y;
    }
}

TEST(ToolkitHeaders, ComplexHeaderArithmetic) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_ON_HOST(kiln::test::vendor_headers);
    const kiln::RawKernel complex_math(kiln::test::complex_math_source, "complex_math");
    ndarray out = kiln::zeros({5}, kiln::float32);
    complex_math(Dim3{1}, Dim3{1}, {out});
    const auto values = out.get<float>();
    EXPECT_EQ(values[0], -5.0F);  // (1 + 2i)(3 + 4i) = -5 + 10i
    EXPECT_EQ(values[1], 10.0F);
    EXPECT_FLOAT_EQ(values[2], 5.0F);  // |3 + 4i|, through a scaled square root
    EXPECT_EQ(values[3], 3.0F);
    EXPECT_EQ(values[4], -4.0F);
}

}  // namespace
