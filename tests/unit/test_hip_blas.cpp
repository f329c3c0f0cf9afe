// The HIP backend's hipBLAS table (backends/hip/blas.hpp) on HIP's AMD platform, over a stand-in
// with hipBLAS's C API (tests/support/stand_in_hipblas.cpp), found by kiln's own library search:
// row-major batched products through the column-major GEMMs, checked element by element against
// a host loop, plus the handle per device, the stream, and a failed GEMM's error.
#include "backends/hip/blas.hpp"

#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <complex>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using kiln::DType;
using kiln::detail::GemmCall;
using kiln::detail::hip::Blas;

// A function of the stand-in kiln loaded.
template <class Function>
Function stand_in(const char* name) {
    void* library = dlopen(KILN_STAND_IN_HIPBLAS, RTLD_NOW | RTLD_NOLOAD);
    EXPECT_NE(library, nullptr) << "kiln did not load " << KILN_STAND_IN_HIPBLAS;
    return library != nullptr ? reinterpret_cast<Function>(dlsym(library, name)) : nullptr;
}

class HipBlas : public testing::Test {
protected:
    // kiln's search looks only where KILN_VENDOR_LIBRARY_PATH says, once per process.
    static void SetUpTestSuite() {
        // NOLINTNEXTLINE(concurrency-mt-unsafe): before any library loads
        setenv("KILN_VENDOR_LIBRARY_PATH", KILN_STAND_IN_HIPBLAS_DIR, 1);
    }
};

// Small integers, so every product and sum is exact in each dtype.
template <class T>
T element(std::int64_t i) {
    if constexpr (std::is_same_v<T, std::complex<float>> ||
                  std::is_same_v<T, std::complex<double>>) {
        using R = typename T::value_type;
        return {static_cast<R>(i % 5 - 2), static_cast<R>(i % 3 - 1)};
    } else {
        return static_cast<T>(i % 7 - 3);
    }
}

// a (batch, m, k) @ b (batch, k, n) into c (batch, m, n), all row-major, through Blas::gemm.
template <class T>
void expect_batched_product(DType dtype, int batch, int m, int k, int n) {
    std::vector<T> a(static_cast<std::size_t>(batch) * m * k);
    std::vector<T> b(static_cast<std::size_t>(batch) * k * n);
    std::vector<T> c(static_cast<std::size_t>(batch) * m * n, T(99));
    for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = element<T>(static_cast<std::int64_t>(i));
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
        b[i] = element<T>(static_cast<std::int64_t>(3 * i + 1));
    }
    int stream_mark = 0;
    const GemmCall call{.dtype = dtype,
                        .m = m,
                        .n = n,
                        .k = k,
                        .a = a.data(),
                        .a_stride = std::int64_t{m} * k,
                        .b = b.data(),
                        .b_stride = std::int64_t{k} * n,
                        .c = c.data(),
                        .c_stride = std::int64_t{m} * n,
                        .batch = batch,
                        .stream = kiln::StreamView{&stream_mark, 0}};
    ASSERT_TRUE(Blas::gemm(call, 0)) << kiln::detail::hip::hipblas_library().load();
    EXPECT_EQ(stand_in<void* (*)()>("kiln_stand_in_last_stream")(), &stream_mark);
    const auto rows = static_cast<std::size_t>(m);
    const auto inner = static_cast<std::size_t>(k);
    const auto columns = static_cast<std::size_t>(n);
    for (std::size_t p = 0; p < static_cast<std::size_t>(batch); ++p) {
        for (std::size_t i = 0; i < rows; ++i) {
            for (std::size_t j = 0; j < columns; ++j) {
                T expected{};
                for (std::size_t l = 0; l < inner; ++l) {
                    expected += a[(p * rows + i) * inner + l] * b[(p * inner + l) * columns + j];
                }
                ASSERT_EQ(c[(p * rows + i) * columns + j], expected)
                    << "batch " << p << ", row " << i << ", column " << j;
            }
        }
    }
}

TEST_F(HipBlas, BatchedProductsOfEveryDtypeAreRowMajor) {
    expect_batched_product<float>(DType::float32, 3, 5, 4, 7);
    expect_batched_product<double>(DType::float64, 1, 9, 1, 2);
    expect_batched_product<std::complex<float>>(DType::complex64, 2, 3, 6, 1);
    expect_batched_product<std::complex<double>>(DType::complex128, 2, 1, 3, 4);
}

TEST_F(HipBlas, OtherDtypesAreLeftToKilnsKernel) {
    std::vector<int> a(4, 1);
    std::vector<int> c(4);
    const GemmCall call{
        .dtype = DType::int32, .m = 2, .n = 2, .k = 2, .a = a.data(), .b = a.data(), .c = c.data()};
    EXPECT_FALSE(Blas::gemm(call, 0));
}

// hipBLAS (rocBLAS) keeps its scratch per handle, so matmul takes no workspace for it.
TEST_F(HipBlas, TakesNoWorkspaceFromKiln) {
    std::vector<float> x(4, 1.0F);
    const GemmCall call{.m = 2, .n = 2, .k = 2, .a = x.data(), .b = x.data(), .c = x.data()};
    ASSERT_TRUE(Blas::gemm(call, 0));  // the stand-in is loaded
    EXPECT_EQ(Blas::workspace_bytes(9), 0U);
}

TEST_F(HipBlas, OneHandlePerDevice) {
    std::vector<float> x(4, 1.0F);
    const GemmCall call{.m = 2, .n = 2, .k = 2, .a = x.data(), .b = x.data(), .c = x.data()};
    ASSERT_TRUE(Blas::gemm(call, 0));
    const int before = stand_in<int (*)()>("kiln_stand_in_handles_made")();
    ASSERT_TRUE(Blas::gemm(call, 0));
    ASSERT_TRUE(Blas::gemm(call, 5));
    ASSERT_TRUE(Blas::gemm(call, 5));
    ASSERT_TRUE(Blas::gemm(call, 0));
    EXPECT_EQ(stand_in<int (*)()>("kiln_stand_in_handles_made")(), before + 1);
}

TEST_F(HipBlas, AFailedGemmIsABackendErrorNamingTheCallAndStatus) {
    std::vector<double> x(4, 1.0);
    const GemmCall call{.dtype = DType::float64,
                        .m = 2,
                        .n = 2,
                        .k = 2,
                        .a = x.data(),
                        .b = x.data(),
                        .c = x.data()};
    ASSERT_TRUE(Blas::gemm(call, 0));
    stand_in<void (*)(int)>("kiln_stand_in_fail_next_gemm")(5);
    try {
        (void)Blas::gemm(call, 0);
        ADD_FAILURE() << "expected kiln::BackendError";
    } catch (const kiln::BackendError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("hipblasDgemmStridedBatched"), std::string::npos) << what;
        EXPECT_NE(what.find("HIPBLAS_STATUS_EXECUTION_FAILED"), std::string::npos) << what;
    }
}

}  // namespace
