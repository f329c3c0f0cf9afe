// A stand-in for hipBLAS, for testing kiln's hipBLAS table where no hipBLAS exists (Debian has
// none): the five functions kiln calls, with hipBLAS's C signatures, over host memory. Its GEMMs
// compute what the BLAS documents for column-major operands without transposes, so a test checks
// the results of kiln's operand mapping, not the arguments it passed. It also counts the handles
// it made, keeps the stream it was given, and fails the next GEMM with a status when asked.
#include <complex>
#include <cstdint>

namespace {

int handles_made = 0;
void* last_stream = nullptr;
int next_status = 0;

// Complex operands are pairs of reals, as std::complex lays them out.
template <class T>
int multiply(int transa, int transb, int m, int n, int k, const T* alpha, const T* a, int lda,
             std::int64_t stride_a, const T* b, int ldb, std::int64_t stride_b, const T* beta, T* c,
             int ldc, std::int64_t stride_c, int batch) {
    constexpr int no_transpose = 111;
    if (next_status != 0) {
        const int status = next_status;
        next_status = 0;
        return status;
    }
    if (transa != no_transpose || transb != no_transpose) {
        return 7;  // HIPBLAS_STATUS_NOT_SUPPORTED: kiln never transposes
    }
    for (int p = 0; p < batch; ++p) {
        for (int j = 0; j < n; ++j) {
            for (int i = 0; i < m; ++i) {
                T sum{};
                for (int l = 0; l < k; ++l) {
                    sum += a[p * stride_a + i + std::int64_t{l} * lda] *
                           b[p * stride_b + l + std::int64_t{j} * ldb];
                }
                T& out = c[p * stride_c + i + std::int64_t{j} * ldc];
                out = *alpha * sum + *beta * out;
            }
        }
    }
    return 0;
}

}  // namespace

extern "C" {

int hipblasCreate(void** handle) {
    *handle = &handles_made;
    ++handles_made;
    return 0;
}

int hipblasSetStream(void* /*handle*/, void* stream) {
    last_stream = stream;
    return 0;
}

#define KILN_STAND_IN_GEMM(name, T)                                                               \
    int name(void*, int ta, int tb, int m, int n, int k, const T* alpha, const T* a, int lda,     \
             std::int64_t sa, const T* b, int ldb, std::int64_t sb, const T* beta, T* c, int ldc, \
             std::int64_t sc, int batch) {                                                        \
        return multiply(ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, batch); \
    }
KILN_STAND_IN_GEMM(hipblasSgemmStridedBatched, float)
KILN_STAND_IN_GEMM(hipblasDgemmStridedBatched, double)
KILN_STAND_IN_GEMM(hipblasCgemmStridedBatched, std::complex<float>)
KILN_STAND_IN_GEMM(hipblasZgemmStridedBatched, std::complex<double>)

// The test's side.
int kiln_stand_in_handles_made() {
    return handles_made;
}
void* kiln_stand_in_last_stream() {
    return last_stream;
}
void kiln_stand_in_fail_next_gemm(int status) {
    next_status = status;
}
}
