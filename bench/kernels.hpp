// The seeds' kernels as kiln-bench runs them. Each definition also goes into the results file,
// from which bench/cupy_compare.py builds CuPy's kernels: both sides run the same sources.
#pragma once

#include "json.hpp"

#include <kiln/elementwise_kernel.hpp>
#include <kiln/raw_kernel.hpp>
#include <kiln/reduction_kernel.hpp>

#include <string>

namespace kiln::bench {

struct ElementwiseDefinition {
    const char* in_params;
    const char* out_params;
    const char* operation;
    const char* name;

    [[nodiscard]] ElementwiseKernel make(const std::string& preamble = {}) const {
        return {in_params, out_params, operation, name, {.preamble = preamble}};
    }
    [[nodiscard]] Json json() const {
        return Json::object({{"class", "ElementwiseKernel"},
                             {"in_params", in_params},
                             {"out_params", out_params},
                             {"operation", operation},
                             {"name", name}});
    }
};

struct ReductionDefinition {
    const char* in_params;
    const char* out_params;
    const char* map_expr;
    const char* reduce_expr;
    const char* post_map_expr;
    const char* identity;
    const char* name;

    [[nodiscard]] ReductionKernel make(const std::string& preamble = {}) const {
        return {in_params,     out_params, map_expr, reduce_expr,
                post_map_expr, identity,   name,     {.preamble = preamble}};
    }
    [[nodiscard]] Json json() const {
        return Json::object({{"class", "ReductionKernel"},
                             {"in_params", in_params},
                             {"out_params", out_params},
                             {"map_expr", map_expr},
                             {"reduce_expr", reduce_expr},
                             {"post_map_expr", post_map_expr},
                             {"identity", identity},
                             {"name", name}});
    }
};

struct RawDefinition {
    const char* code;
    const char* name;

    [[nodiscard]] RawKernel make(const std::string& prefix = {}) const {
        return {prefix + code, name};
    }
    [[nodiscard]] Json json() const {
        return Json::object({{"class", "RawKernel"}, {"code", code}, {"name", name}});
    }
};

namespace kernels {

inline constexpr ElementwiseDefinition custom_add{"T x, T y", "T z", "z = x + y", "custom_add"};
inline constexpr ElementwiseDefinition clipped_relu{"T x, T cap", "T y",
                                                    "y = min(max(x, (T)0), cap)", "clipped_relu"};
inline constexpr ElementwiseDefinition squared_diff{"float32 x, float32 y", "float32 z",
                                                    "z = (x - y) * (x - y)", "squared_diff"};
inline constexpr ElementwiseDefinition squared_magnitude{
    "complex128 z", "float64 m", "m = z.real() * z.real() + z.imag() * z.imag()",
    "squared_magnitude"};
inline constexpr ElementwiseDefinition squared_magnitude_c64{
    "complex64 z", "float32 m", "m = z.real() * z.real() + z.imag() * z.imag()",
    "squared_magnitude"};
// squared_magnitude's work on float64 parts in two arrays: the same bytes per element.
inline constexpr ElementwiseDefinition squared_magnitude_pairs{
    "float64 x, float64 y", "float64 m", "m = x * x + y * y", "squared_magnitude_pairs"};
inline constexpr ElementwiseDefinition conj_multiply{"T x, T y", "T z", "z = x * conj(y)",
                                                     "conj_multiply"};
inline constexpr ElementwiseDefinition softplus{
    "T x", "T y", "y = max(x, (T)0) + log1p(exp(-fabs(x)))", "softplus"};
inline constexpr ElementwiseDefinition difference_square{"T x, T y", "T d", "d = (x - y) * (x - y)",
                                                         "difference_square"};
// Two partial means weighted by their shares of the elements: the whole's mean.
inline constexpr ElementwiseDefinition weighted_sum{"T x, T y, T wx, T wy", "T z",
                                                    "z = x * wx + y * wy", "weighted_sum"};
inline constexpr ElementwiseDefinition twice{"T x", "T y", "y = x + x", "twice"};
// prime_factor_sum's body as an ElementwiseKernel: element i is the sum for i + 2.
inline constexpr ElementwiseDefinition prime_factor_sum_elementwise{
    "", "int64 out",
    "long long k = i + 2, sum = 0;\n"
    "for (long long p = 2; p * p <= k; ++p) {\n"
    "    while (k % p == 0) { sum += p; k /= p; }\n"
    "}\n"
    "out = k > 1 ? sum + k : sum",
    "prime_factor_sum_elementwise"};

inline constexpr ReductionDefinition mse{
    "T x, T y", "T z", "(x - y) * (x - y)", "a + b", "z = a / _in_ind.size()", "0", "mse"};
inline constexpr ReductionDefinition sum{"T x", "T y", "x", "a + b", "y = a", "0", "sum"};
inline constexpr ReductionDefinition l2norm{"T x",         "T y", "x * x", "a + b",
                                            "y = sqrt(a)", "0",   "l2norm"};

inline constexpr RawDefinition add_raw{R"(
extern "C" __global__ void add_raw(const float* x, const float* y, float* z, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = x[i] + y[i];
}
)",
                                       "add_raw"};

inline constexpr RawDefinition prime_factor_sum{R"(
extern "C" __global__ void prime_factor_sum(long long* out, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= n - 1) return;
    long long k = i + 2, sum = 0;
    for (long long p = 2; p * p <= k; ++p) {
        while (k % p == 0) { sum += p; k /= p; }
    }
    out[i] = k > 1 ? sum + k : sum;
}
)",
                                                "prime_factor_sum"};

inline constexpr RawDefinition matmul_naive{R"(
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
                                            "matmul"};

// 16x16 tiles of a and b staged through shared memory; blocks of 16x16 threads.
inline constexpr RawDefinition matmul_tiled{R"(
#define TILE 16
extern "C" __global__ void matmul_tiled(const float* a, const float* b, float* c,
                                        int m, int n, int k) {
    __shared__ float a_tile[TILE][TILE];
    __shared__ float b_tile[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        a_tile[ty][tx] = (row < m && t + tx < k) ? a[row * k + t + tx] : 0.0f;
        b_tile[ty][tx] = (t + ty < k && col < n) ? b[(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; ++i) sum += a_tile[ty][i] * b_tile[i][tx];
        __syncthreads();
    }
    if (row < m && col < n) c[row * n + col] = sum;
}
)",
                                            "matmul_tiled"};

// One pass: each block sums its grid-stride share of (x - y)^2 and stores it; the last block to
// finish (counted in `done`, which wraps back to 0 for the next launch) adds the partial sums
// and writes the mean. Blocks of 256 threads with 256 doubles of dynamic shared memory.
inline constexpr RawDefinition mse_block{R"(
extern "C" __global__ void mse_block(const double* x, const double* y, double* partial,
                                     unsigned int* done, double* out, long long n) {
    extern __shared__ double shared[];
    __shared__ bool last;
    double acc = 0.0;
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride) {
        double d = x[i] - y[i];
        acc += d * d;
    }
    shared[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) shared[threadIdx.x] += shared[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = shared[0];
        __threadfence();
        last = atomicInc(done, gridDim.x - 1) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    double total = 0.0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
        total += ((volatile double*)partial)[b];
    }
    shared[threadIdx.x] = total;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) shared[threadIdx.x] += shared[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] = shared[0] / (double)n;
}
)",
                                         "mse_block"};

}  // namespace kernels

}  // namespace kiln::bench
