// RawKernel and RawModule on a real GPU: the seeds' examples with their known answers, checked
// against host computations, and every error a user can make.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/prime_factors.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <numeric>
#include <string>
#include <vector>

namespace {

using kiln::Dim3;
using kiln::ndarray;

constexpr const char* prime_source = R"(
extern "C" __global__ void prime_factor_sum(long long* out, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= n - 1) return;
    long long k = i + 2, sum = 0;
    for (long long p = 2; p * p <= k; ++p) {
        while (k % p == 0) { sum += p; k /= p; }
    }
    out[i] = k > 1 ? sum + k : sum;
}
)";

TEST(RawKernel, PrimeFactorSumOfTheSeed) {
    KILN_REQUIRE_DEVICE();
    const kiln::RawKernel kernel(prime_source, "prime_factor_sum");
    const long long n = 1'000'000;
    ndarray out = kiln::empty({n - 1}, kiln::int64);
    kernel(Dim3{static_cast<unsigned>((n + 255) / 256)}, Dim3{256}, {out, n});
    const auto values = out.get<std::int64_t>();
    EXPECT_EQ(values[0], 2);
    EXPECT_EQ(values[1], 3);
    EXPECT_EQ(values[2], 4);
    EXPECT_EQ(values[values.size() - 3], 287);
    EXPECT_EQ(values[values.size() - 2], 77);
    EXPECT_EQ(values[values.size() - 1], 42);
    int mismatches = 0;
    for (std::size_t i = 0; i < values.size(); i += 997) {
        mismatches += values[i] != kiln::test::prime_factor_sum(static_cast<std::int64_t>(i) + 2);
    }
    EXPECT_EQ(mismatches, 0);
}

TEST(RawModule, ReluAndSigmoidOfTheSeed) {
    KILN_REQUIRE_DEVICE();
    const kiln::RawModule module(R"(
extern "C" __global__ void relu(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
extern "C" __global__ void sigmoid(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 1.0f / (1.0f + expf(-x[i]));
}
)");
    const std::vector<float> host{-2, -1, 0, 1, 2};
    const ndarray x = kiln::array(host);
    ndarray y = kiln::empty_like(x);
    module.get_function("relu")(Dim3{1}, Dim3{32}, {x, y, 5});
    EXPECT_EQ(y.get<float>(), (std::vector<float>{0, 0, 0, 1, 2}));
    module.get_function("sigmoid")(Dim3{1}, Dim3{32}, {x, y, 5});
    const auto s = y.get<float>();
    for (std::size_t i = 0; i < host.size(); ++i) {
        EXPECT_NEAR(s[i], 1.0 / (1.0 + std::exp(-static_cast<double>(host[i]))), 1e-6);
    }
}

TEST(RawKernel, NaiveMatmulMatchesTheHost) {
    KILN_REQUIRE_DEVICE();
    const kiln::RawKernel matmul(R"(
extern "C" __global__ void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float sum = 0.0f;
        for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
        c[row * n + col] = sum;
    }
}
)",
                                 "matmul");
    const int m = 67;
    const int n = 45;
    const int k = 33;
    std::vector<float> a(m * k);
    std::vector<float> b(k * n);
    for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = static_cast<float>((i * 37) % 17) / 8.0F - 1.0F;
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
        b[i] = static_cast<float>((i * 11) % 13) / 4.0F - 1.5F;
    }
    const ndarray da = kiln::array(a);
    const ndarray db = kiln::array(b);
    ndarray dc = kiln::empty({m, n}, kiln::float32);
    matmul(Dim3{(n + 15) / 16, (m + 15) / 16}, Dim3{16, 16}, {da, db, dc, m, n, k});
    const auto c = dc.get<float>();
    double error = 0.0;
    double norm = 0.0;
    for (int row = 0; row < m; ++row) {
        for (int col = 0; col < n; ++col) {
            double want = 0.0;
            for (int i = 0; i < k; ++i) {
                want += static_cast<double>(a[row * k + i]) * b[i * n + col];
            }
            error += std::pow(c[row * n + col] - want, 2);
            norm += want * want;
        }
    }
    EXPECT_LT(std::sqrt(error / norm), 1e-6);
}

constexpr const char* block_sum_source = R"(
extern "C" __global__ void block_sum(const int* x, unsigned long long* total, int n) {
    extern __shared__ int partial[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? x[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(total, (unsigned long long)partial[0]);
}
)";

TEST(RawKernel, BlockSumWithDynamicSharedMemory) {
    KILN_REQUIRE_DEVICE();
    const kiln::RawKernel block_sum(block_sum_source, "block_sum");
    const int n = 1'000'003;
    const ndarray x = kiln::arange(std::int64_t{0}, n, 1, kiln::int32);
    ndarray total = kiln::zeros({1}, kiln::uint64);
    block_sum(Dim3{(n + 511) / 512}, Dim3{512}, {x, total, n}, {.shared_mem = 512 * sizeof(int)});
    EXPECT_EQ(total.get<std::uint64_t>()[0], static_cast<std::uint64_t>(n) * (n - 1) / 2);
}

TEST(RawModule, NameExpressionsAndGlobals) {
    KILN_REQUIRE_DEVICE();
    const kiln::RawModule module(R"(
__device__ int launches;
template <class T>
__global__ void scale(T* x, T a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
    if (i == 0) atomicAdd(&launches, 1);
}
)",
                                 {}, {"scale<float>", "scale<double>"});
    ndarray f = kiln::full({4}, 1.5F);
    module.get_function("scale<float>")(Dim3{1}, Dim3{32}, {f, 2.0F, 4});
    ndarray d = kiln::full({3}, 0.25);
    module.get_function("scale<double>")(Dim3{1}, Dim3{32}, {d, 4.0, 3});
    EXPECT_EQ(f.get<float>(), (std::vector<float>{3, 3, 3, 3}));
    EXPECT_EQ(d.get<double>(), (std::vector<double>{1, 1, 1}));
    const kiln::GlobalSymbol launches = module.get_global("launches");
    EXPECT_EQ(launches.bytes, sizeof(int));
    const ndarray count = kiln::from_pointer(launches.ptr, {1}, kiln::int32);
    EXPECT_EQ(count.get<std::int32_t>()[0], 2);

    EXPECT_THROW((void)module.get_function("scale<int>"), kiln::Error);
    EXPECT_THROW((void)module.get_function("missing"), kiln::Error);
    EXPECT_THROW((void)module.get_global("missing"), kiln::Error);
}

TEST(RawModule, LoadsACompiledCodeObjectFromAFile) {
    KILN_REQUIRE_DEVICE();
    const kiln::RawModule source(R"(
extern "C" __global__ void fill7(int* x) { x[threadIdx.x] = 7; }
)");
    const auto image = source.compile(kiln::Device::current().properties().arch);
    const auto path = std::filesystem::temp_directory_path() /
                      (std::string("kiln-test-") + std::to_string(::getpid()) +
                       (kiln::test::is_nvidia() ? ".cubin" : ".hsaco"));
    std::ofstream(path, std::ios::binary).write(image.data(), static_cast<long>(image.size()));
    const auto loaded = kiln::RawModule::from_file(path);
    std::filesystem::remove(path);
    ndarray x = kiln::zeros({4}, kiln::int32);
    loaded.get_function("fill7")(Dim3{1}, Dim3{4}, {x});
    EXPECT_EQ(x.get<std::int32_t>(), (std::vector<std::int32_t>{7, 7, 7, 7}));
    EXPECT_THROW((void)kiln::RawModule::from_file("/nonexistent/kiln.cubin"), kiln::Error);
}

constexpr const char* axpy_source = R"(
extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
)";

TEST(RawKernel, MismatchedArgumentsAreTypeErrors) {
    KILN_REQUIRE_DEVICE();
    const kiln::RawKernel axpy(axpy_source, "axpy");
    ndarray x = kiln::ones({8}, kiln::float32);
    ndarray y = kiln::ones({8}, kiln::float32);
    const ndarray wrong = kiln::ones({8}, kiln::float64);
    try {
        axpy(Dim3{1}, Dim3{8}, {2.0, x, y, 8});
        FAIL() << "a double passed for a float parameter must be refused";
    } catch (const kiln::TypeError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("argument 1 ('a') is a scalar of float64"), std::string::npos) << what;
        EXPECT_NE(what.find("'axpy'"), std::string::npos) << what;
    }
    EXPECT_THROW(axpy(Dim3{1}, Dim3{8}, {2.0F, wrong, y, 8}), kiln::TypeError);
    EXPECT_THROW(axpy(Dim3{1}, Dim3{8}, {2.0F, x, y}), kiln::TypeError);
    EXPECT_THROW(axpy(Dim3{1}, Dim3{8}, {2.0F, x, 3, 8}), kiln::TypeError);
    axpy(Dim3{1}, Dim3{8}, {2.0F, x, y, 8});
    EXPECT_EQ(y.get<float>(), std::vector<float>(8, 3.0F));
    // A raw pointer is accepted where the kernel takes one.
    axpy(Dim3{1}, Dim3{8}, {1.0F, static_cast<const float*>(x.data()), y, 8});
    EXPECT_EQ(y.get<float>(), std::vector<float>(8, 4.0F));
}

constexpr const char* affine_source = R"(
extern "C" __global__ void affine_index(long long* out, unsigned int n, size_t offset, int scale,
                                        long long shift) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (long long)offset + (long long)i * scale + shift;
}
)";

// Integer arguments of another width or signedness convert to the parameter's type when the value
// fits (an int literal for unsigned int, an int for size_t, a size_t for int, a negative int for
// long long, whose bytes alone would read as 4294967289); out of range is a TypeError, and
// floating-point arguments stay exact.
TEST(RawKernel, IntegerArgumentsConvertWhenTheyFit) {
    KILN_REQUIRE_DEVICE();
    const kiln::RawKernel affine(affine_source, "affine_index");
    ndarray out = kiln::zeros({128}, kiln::int64);
    affine(Dim3{1}, Dim3{128}, {out, 100, 5, std::size_t{3}, -7});
    std::vector<std::int64_t> want(128, 0);
    for (std::int64_t i = 0; i < 100; ++i) {
        want[static_cast<std::size_t>(i)] = 5 + 3 * i - 7;
    }
    EXPECT_EQ(out.get<std::int64_t>(), want);

    auto refused = [&](std::initializer_list<kiln::KernelArg> args) -> std::string {
        try {
            affine(Dim3{1}, Dim3{128}, args);
        } catch (const kiln::TypeError& e) {
            return e.what();
        }
        return "";
    };
    const std::string negative = refused({out, -1, 5, 3, 0LL});
    EXPECT_NE(negative.find("'affine_index'"), std::string::npos) << negative;
    EXPECT_NE(negative.find("argument 2 ('n')"), std::string::npos) << negative;
    EXPECT_NE(negative.find("(-1)"), std::string::npos) << negative;
    EXPECT_NE(negative.find("'unsigned int n'"), std::string::npos) << negative;
    const std::string too_big = refused({out, 100, 5, std::int64_t{INT32_MAX} + 1, 0LL});
    EXPECT_NE(too_big.find("argument 4 ('scale')"), std::string::npos) << too_big;
    EXPECT_NE(too_big.find("2147483648"), std::string::npos) << too_big;
    EXPECT_NE(too_big.find("'int scale'"), std::string::npos) << too_big;
    EXPECT_NE(refused({out, 100, -5, 3, 0LL}).find("'size_t offset'"), std::string::npos);
    EXPECT_EQ(out.get<std::int64_t>(), want) << "a refused launch must not run";

    const kiln::RawKernel axpy(axpy_source, "axpy");
    ndarray x = kiln::ones({8}, kiln::float32);
    ndarray y = kiln::ones({8}, kiln::float32);
    EXPECT_THROW(axpy(Dim3{1}, Dim3{8}, {2.0, x, y, 8}), kiln::TypeError) << "double for float";
    axpy(Dim3{1}, Dim3{8}, {2.0F, x, y, std::size_t{8}});  // size_t for int n converts
    EXPECT_EQ(y.get<float>(), std::vector<float>(8, 3.0F));
}

TEST(RawKernel, LaunchLimitsAreCheckedBeforeLaunching) {
    KILN_REQUIRE_DEVICE();
    const kiln::RawKernel block_sum(block_sum_source, "block_sum");
    const ndarray x = kiln::zeros({4}, kiln::int32);
    ndarray total = kiln::zeros({1}, kiln::uint64);
    const auto attributes = block_sum.attributes();
    EXPECT_GE(attributes.max_threads_per_block, 256);
    EXPECT_LE(attributes.max_threads_per_block, 1024);
    if (!kiln::test::is_host()) {
        EXPECT_GT(attributes.num_regs, 0);
    }
    try {
        block_sum(Dim3{1}, Dim3{1024, 2}, {x, total, 4}, {.shared_mem = 8192});
        FAIL() << "a block of 2048 threads must be refused";
    } catch (const kiln::Error& e) {
        EXPECT_NE(std::string(e.what()).find("has 2048 threads"), std::string::npos) << e.what();
    }
    const auto& device = kiln::Device::current().properties();
    EXPECT_THROW(block_sum(Dim3{1}, Dim3{64}, {x, total, 4},
                           {.shared_mem = device.shared_memory_per_block_optin + 1}),
                 kiln::Error);
    EXPECT_THROW(block_sum(Dim3{0}, Dim3{64}, {x, total, 4}), kiln::Error);
    if (device.shared_memory_per_block_optin > device.shared_memory_per_block) {
        const int big = static_cast<int>(device.shared_memory_per_block) + 4096;
        EXPECT_THROW(block_sum(Dim3{1}, Dim3{64}, {x, total, 4},
                               {.shared_mem = static_cast<std::size_t>(big)}),
                     kiln::Error);
        block_sum.set_max_dynamic_shared_size_bytes(big);
        EXPECT_EQ(block_sum.attributes().max_dynamic_shared_size_bytes, big);
        block_sum(Dim3{1}, Dim3{64}, {x, total, 4}, {.shared_mem = static_cast<std::size_t>(big)});
        EXPECT_EQ(total.get<std::uint64_t>()[0], 0U);
    }
}

TEST(RawKernel, CooperativeLaunchClampsTheGridToResidentBlocks) {
    KILN_REQUIRE_DEVICE();
    const kiln::RawKernel count_blocks(R"(
extern "C" __global__ void count_blocks(unsigned* blocks) {
    if (threadIdx.x == 0) atomicAdd(blocks, 1u);
}
)",
                                       "count_blocks");
    ndarray blocks = kiln::zeros({1}, kiln::uint32);
    if (kiln::test::is_hip()) {
        EXPECT_THROW(count_blocks(Dim3{1'000'000}, Dim3{128}, {blocks}, {.cooperative = true}),
                     kiln::Error);
        GTEST_SKIP() << "HIP 5.2 cannot launch run-time compiled kernels cooperatively";
    }
    count_blocks(Dim3{1'000'000}, Dim3{128}, {blocks}, {.cooperative = true});
    const auto launched = blocks.get<std::uint32_t>()[0];
    const auto sms =
        static_cast<unsigned>(kiln::Device::current().properties().multiprocessor_count);
    EXPECT_LT(launched, 1'000'000U);
    EXPECT_GE(launched, sms);
    EXPECT_EQ(launched % sms, 0U);
}

TEST(RawKernel, CompileErrorsAndBadNames) {
    KILN_REQUIRE_DEVICE();
    EXPECT_THROW(kiln::RawKernel("", "1bad"), kiln::Error);
    const kiln::RawKernel broken("extern \"C\" __global__ void broken(int* x) { x[0] = y; }",
                                 "broken");
    ndarray x = kiln::zeros({1}, kiln::int32);
    try {
        broken(Dim3{1}, Dim3{1}, {x});
        FAIL() << "expected kiln::CompileError";
    } catch (const kiln::CompileError& e) {
        // NVRTC and HIPRTC quote names in ", GCC in ' or in the locale's quotes.
        const std::string& log = e.log();
        const bool named = log.find("\"y\"") != std::string::npos ||
                           log.find("'y'") != std::string::npos ||
                           log.find("\u2018y\u2019") != std::string::npos;
        EXPECT_TRUE(named) << log;
    }
}

}  // namespace
