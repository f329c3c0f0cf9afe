// JIT kernels (kernels written in this file, KILN_JIT_KERNEL) on a real GPU: values against host
// loops, ndarray and pointer arguments, scalars, helpers, templates, launch options and the
// errors of a call.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/expect_error.hpp"
#include "tests/support/prime_factors.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using kiln::Dim3;
using kiln::ndarray;

constexpr int prime_line = __LINE__ + 1;
KILN_JIT_KERNEL(prime_factor_sum, (const long long* a, long long* out, long long n), {
    long long i = blockDim.x * (long long)blockIdx.x + threadIdx.x;
    if (i >= n)
        return;
    long long k = a[i], sum = 0;
    for (long long p = 2; p * p <= k; ++p) {
        while (k % p == 0) {
            sum += p;
            k /= p;
        }
    }
    out[i] = k > 1 ? sum + k : sum;
});

// One helper, two kernels.
KILN_JIT_FUNCTION(long long, smallest_prime_factor, (long long k), {
    for (long long p = 2; p * p <= k; ++p) {
        if (k % p == 0)
            return p;
    }
    return k;
});

KILN_JIT_KERNEL_WITH(factor_sum_by_helper, (const long long* a, long long* out, long long n),
                     (kiln::JitConfig{.uses = {smallest_prime_factor}}), {
                         long long i = blockDim.x * (long long)blockIdx.x + threadIdx.x;
                         if (i >= n)
                             return;
                         long long sum = 0;
                         for (long long k = a[i]; k > 1;) {
                             long long p = smallest_prime_factor(k);
                             sum += p;
                             k /= p;
                         }
                         out[i] = sum;
                     });

KILN_JIT_KERNEL_WITH(is_prime, (const long long* a, bool* out, long long n),
                     (kiln::JitConfig{.uses = {smallest_prime_factor}}), {
                         long long i = blockDim.x * (long long)blockIdx.x + threadIdx.x;
                         if (i < n)
                             out[i] = a[i] > 1 && smallest_prime_factor(a[i]) == a[i];
                     });

constexpr int affine_line = __LINE__ + 1;
KILN_JIT_KERNEL(affine, (float a, const float* x, float b, float* y, int n, bool negate), {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n)
        y[i] = (negate ? -1.0f : 1.0f) * (a * x[i] + b);
});

KILN_JIT_KERNEL_TEMPLATE(scale_add, (class T, class S), (const T* x, S factor, T* y, int n), {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n)
        y[i] += (T)(x[i] * factor);
});

// A block sum in dynamic shared memory.
KILN_JIT_KERNEL(block_sums, (const int* x, long long* sums, int n), {
    extern __shared__ long long partial[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? x[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        sums[blockIdx.x] = partial[0];
});

// Element k is 2 + (k * 7919) % 999983: composites, primes and squares of primes.
std::vector<long long> factor_inputs(std::size_t count) {
    std::vector<long long> values(count);
    for (std::size_t k = 0; k < count; ++k) {
        values[k] = 2 + static_cast<long long>((k * 7919) % 999983);
    }
    values[0] = 999983;         // a prime
    values[1] = 999983LL * 13;  // a prime times a small one
    values[2] = 1024;           // 2^10
    return values;
}

unsigned blocks_for(long long n) {
    return static_cast<unsigned>((n + 255) / 256);
}

TEST(JitKernel, PrimeFactorSumOfEachElement) {
    KILN_REQUIRE_DEVICE();
    const auto host = factor_inputs(100'003);
    const ndarray a = kiln::array(host);
    const ndarray out = kiln::empty({a.size()}, kiln::int64);
    prime_factor_sum(Dim3{blocks_for(a.size())}, Dim3{256}, a, out, a.size());
    const auto got = out.get<std::int64_t>();
    EXPECT_EQ(got[0], 999983);
    EXPECT_EQ(got[1], 999983 + 13);
    EXPECT_EQ(got[2], 20);
    int mismatches = 0;
    for (std::size_t k = 0; k < host.size(); ++k) {
        mismatches += got[k] != kiln::test::prime_factor_sum(host[k]);
    }
    EXPECT_EQ(mismatches, 0);
}

TEST(JitKernel, RawPointersAndArraysMix) {
    KILN_REQUIRE_DEVICE();
    const auto host = factor_inputs(4099);
    const ndarray a = kiln::array(host);
    ndarray out = kiln::zeros({a.size()}, kiln::int64);
    const auto* a_pointer = static_cast<const long long*>(a.data());
    auto* out_pointer = static_cast<long long*>(out.data());
    prime_factor_sum(Dim3{blocks_for(a.size())}, Dim3{256}, a_pointer, out_pointer, a.size());
    auto got = out.get<std::int64_t>();
    for (std::size_t k = 0; k < host.size(); k += 17) {
        ASSERT_EQ(got[k], kiln::test::prime_factor_sum(host[k])) << k;
    }
    // A non-const pointer binds to a const pointer parameter; an ndarray beside a pointer.
    out.fill(0);
    auto* a_mutable = static_cast<long long*>(a.data());
    prime_factor_sum(Dim3{blocks_for(a.size())}, Dim3{256}, a_mutable, out, a.size());
    got = out.get<std::int64_t>();
    EXPECT_EQ(got[host.size() - 1], kiln::test::prime_factor_sum(host.back()));
}

TEST(JitKernel, ScalarsConvertWhenTheyFit) {
    KILN_REQUIRE_DEVICE();
    const std::vector<float> host{-2.0F, 0.5F, 3.0F, 10.0F, -7.25F};
    const ndarray x = kiln::array(host);
    const ndarray y = kiln::empty_like(x);
    // x.size() is an int64 for `int n`: it fits, so it converts. Floating-point values must not
    // narrow (3.0F for `float a`; 3.0 would not compile).
    affine(Dim3{1}, Dim3{32}, 3.0F, x, -1.5F, y, x.size(), true);
    const auto got = y.get<float>();
    for (std::size_t i = 0; i < host.size(); ++i) {
        EXPECT_EQ(got[i], -(3.0F * host[i] - 1.5F)) << i;
    }
    const long long too_big = 1LL << 40;
    kiln::test::expect_error<kiln::TypeError>(
        [&] { affine(Dim3{1}, Dim3{32}, 3.0F, x, -1.5F, y, too_big, false); },
        "kiln: JIT kernel 'affine' (" + std::string(__FILE__) + ":" + std::to_string(affine_line) +
            "): argument 5 ('n', declared 'int n') is 1099511627776, out of range for the "
            "parameter's int32");
}

TEST(JitKernel, OneHelperServesTwoKernels) {
    KILN_REQUIRE_DEVICE();
    const auto host = factor_inputs(20'011);
    const ndarray a = kiln::array(host);
    const ndarray sums = kiln::empty({a.size()}, kiln::int64);
    const ndarray primes = kiln::empty({a.size()}, kiln::bool_);
    factor_sum_by_helper(Dim3{blocks_for(a.size())}, Dim3{256}, a, sums, a.size());
    is_prime(Dim3{blocks_for(a.size())}, Dim3{256}, a, primes, a.size());
    const auto got_sums = sums.get<std::int64_t>();
    const auto got_primes = primes.get<bool>();
    int mismatches = 0;
    int prime_count = 0;
    for (std::size_t k = 0; k < host.size(); ++k) {
        mismatches += got_sums[k] != kiln::test::prime_factor_sum(host[k]);
        mismatches += static_cast<int>(got_primes[k]) !=
                      (kiln::test::smallest_prime_factor(host[k]) == host[k]);
        prime_count += static_cast<int>(got_primes[k]);
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_GT(prime_count, 1000);  // about 1 in 14 below 1e6: both outcomes are exercised
    EXPECT_NE(factor_sum_by_helper.source().find("smallest_prime_factor(long long k)"),
              std::string::npos);
}

TEST(JitKernel, TemplateAtTwoTypes) {
    KILN_REQUIRE_DEVICE();
    const std::vector<float> xf{1.0F, 2.0F, -4.0F};
    const std::vector<double> xd{0.25, -8.0, 1e10};
    const ndarray x32 = kiln::array(xf);
    const ndarray y32 = kiln::full({3}, 1.0F);
    const ndarray x64 = kiln::array(xd);
    const ndarray y64 = kiln::full({3}, 2.0);
    const auto as_float = scale_add.instantiate<float, float>();
    as_float(Dim3{1}, Dim3{32}, x32, 0.5F, y32, 3);
    // The template arguments set the parameters' types: an int factor for double arrays.
    scale_add.instantiate<double, int>()(Dim3{1}, Dim3{32}, x64, 3, y64, 3);
    EXPECT_EQ(y32.get<float>(), (std::vector<float>{1.5F, 2.0F, -1.0F}));
    EXPECT_EQ(y64.get<double>(), (std::vector<double>{2.75, -22.0, 3e10 + 2.0}));
    // Kept per set of types: a second instantiate compiles nothing.
    const auto before = kiln::compile_cache_statistics();
    scale_add.instantiate<float, float>()(Dim3{1}, Dim3{32}, x32, 2.0F, y32, 3);
    const auto after = kiln::compile_cache_statistics();
    EXPECT_EQ(after.compiles, before.compiles);
    EXPECT_EQ(y32.get<float>(), (std::vector<float>{3.5F, 6.0F, -9.0F}));
    // An instance checks its arrays' dtypes as a plain kernel does.
    EXPECT_THROW(as_float(Dim3{1}, Dim3{32}, x64, 0.5F, y32, 3), kiln::TypeError);
}

TEST(JitKernel, DtypeMismatchNamesTheKernelTheParameterAndBothDtypes) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = kiln::arange(0.0, 8.0, 1.0, kiln::float32);
    const ndarray out = kiln::empty({8}, kiln::int64);
    kiln::test::expect_error<kiln::TypeError>(
        [&] { prime_factor_sum(Dim3{1}, Dim3{32}, a, out, 8); },
        "kiln: JIT kernel 'prime_factor_sum' (" + std::string(__FILE__) + ":" +
            std::to_string(prime_line) +
            "): argument 1 ('a', declared 'const long long* a') is an ndarray of float32, but the "
            "parameter points to int64");
    const ndarray a64 = kiln::arange(std::int64_t{0}, 8, 1, kiln::int64);
    const ndarray out32 = kiln::empty({8}, kiln::int32);
    kiln::test::expect_error<kiln::TypeError>(
        [&] { prime_factor_sum(Dim3{1}, Dim3{32}, a64, out32, 8); },
        "kiln: JIT kernel 'prime_factor_sum' (" + std::string(__FILE__) + ":" +
            std::to_string(prime_line) +
            "): argument 2 ('out', declared 'long long* out') is an ndarray of int32, but the "
            "parameter points to int64");
}

TEST(JitKernel, StreamAndSharedMemory) {
    KILN_REQUIRE_DEVICE();
    const int n = 100'003;
    const int block = 256;
    const int blocks = (n + block - 1) / block;
    const kiln::Stream stream(/*non_blocking=*/true);
    const kiln::StreamGuard on(stream);  // the arrays are made on it
    const ndarray x = kiln::arange(std::int64_t{0}, n, 1, kiln::int32);
    const ndarray sums = kiln::empty({blocks}, kiln::int64);
    block_sums(Dim3{static_cast<unsigned>(blocks)}, Dim3{block}, x, sums, n,
               {.shared_mem = block * sizeof(long long), .stream = stream});
    stream.synchronize();
    const auto got = sums.get<std::int64_t>();
    for (int b = 0; b < blocks; ++b) {
        const std::int64_t first = static_cast<std::int64_t>(b) * block;
        const std::int64_t last = std::min<std::int64_t>(first + block, n) - 1;
        ASSERT_EQ(got[static_cast<std::size_t>(b)], (first + last) * (last - first + 1) / 2) << b;
    }
    // More shared memory than the kernel may use is refused before the launch, as RawKernel's.
    EXPECT_THROW(block_sums(Dim3{1}, Dim3{block}, x, sums, n, {.shared_mem = 1U << 30}),
                 kiln::Error);
}

TEST(JitKernel, PreambleAndOptionsAtBlockScope) {
    KILN_REQUIRE_DEVICE();
    KILN_JIT_KERNEL_WITH(
        fill_pattern, (int* x, int n),
        (kiln::JitConfig{.options = {"-DOFFSET=5"},
                         .preamble = "#define SCALE 3\nstruct Pair { int a, b; };"}),
        {
            int i = threadIdx.x;
            Pair p{i * SCALE, OFFSET};
            if (i < n)
                x[i] = p.a + p.b;
        });
    const ndarray x = kiln::empty({40}, kiln::int32);
    fill_pattern(Dim3{1}, Dim3{64}, x, 40);
    const auto got = x.get<std::int32_t>();
    for (int i = 0; i < 40; ++i) {
        EXPECT_EQ(got[static_cast<std::size_t>(i)], 3 * i + 5);
    }
}

}  // namespace
