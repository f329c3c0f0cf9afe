// Kernels that include the vendor toolkit's headers, shared by the compile and device tests. Each
// picks CUDA's or HIP's spelling of the header by the compiler it meets.
#pragma once

namespace kiln::test {

// Block b adds the values i + 1 of its grid-stride share into partial[b]. After the whole grid
// synchronizes, each block copies its right neighbour's partial (written by another block) and
// block 0 adds all of them up; a missing grid barrier reads partials not yet complete.
inline constexpr const char* grid_sum_source = R"(
#if defined(__HIPCC_RTC__)
#include <hip/hip_cooperative_groups.h>
#else
#include <cooperative_groups.h>
#endif
namespace cg = cooperative_groups;

extern "C" __global__ void grid_sum(unsigned long long* partial, unsigned long long* neighbour,
                                    unsigned long long* total, unsigned* blocks, unsigned n) {
    cg::grid_group grid = cg::this_grid();
    const unsigned stride = gridDim.x * blockDim.x;
    unsigned long long sum = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        sum += i + 1ULL;
    }
    atomicAdd(&partial[blockIdx.x], sum);
    grid.sync();
    if (threadIdx.x == 0) {
        neighbour[blockIdx.x] = partial[(blockIdx.x + 1) % gridDim.x];
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        unsigned long long all = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) {
            all += partial[b];
        }
        *total = all;
        *blocks = gridDim.x;
    }
}
)";

// Each block of 256 threads sums its 256 elements of x with CUB's BlockReduce; the last block
// may hold fewer.
inline constexpr const char* cub_block_sums_source = R"(
#include <cub/block/block_reduce.cuh>

extern "C" __global__ void block_sums(const int* x, long long* sums, int n) {
    using Reduce = cub::BlockReduce<long long, 256>;
    __shared__ typename Reduce::TempStorage storage;
    const int first = blockIdx.x * 256;
    const int i = first + threadIdx.x;
    const int valid = n - first < 256 ? n - first : 256;
    const long long sum = Reduce(storage).Sum(i < n ? (long long)x[i] : 0LL, valid);
    if (threadIdx.x == 0) {
        sums[blockIdx.x] = sum;
    }
}
)";

// a * b + a - b and (a * b - a) / 2 in half precision, through the operators and intrinsics of
// the vendor's fp16 header.
inline constexpr const char* half_math_source = R"(
#if defined(__HIPCC_RTC__)
#include <hip/hip_fp16.h>
#else
#include <cuda_fp16.h>
#endif

extern "C" __global__ void half_math(const float* a, const float* b, float* sum, float* fused,
                                     int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    const __half x = __float2half(a[i]);
    const __half y = __float2half(b[i]);
    sum[i] = __half2float(x * y + x - y);
    fused[i] = __half2float(__hfma(x, y, __hneg(x)) / __float2half(2.0f));
}
)";

// (1 + 2i)(3 + 4i), |3 + 4i| and the conjugate of 3 + 4i through the vendor's complex header:
// out = {re, im, abs, conj re, conj im}.
inline constexpr const char* complex_math_source = R"(
#if defined(__HIPCC_RTC__)
#include <hip/hip_complex.h>
#define make_complex make_hipFloatComplex
#define complex_mul hipCmulf
#define complex_abs hipCabsf
#define complex_conj hipConjf
#define real_part hipCrealf
#define imag_part hipCimagf
#else
#include <cuComplex.h>
#define make_complex make_cuFloatComplex
#define complex_mul cuCmulf
#define complex_abs cuCabsf
#define complex_conj cuConjf
#define real_part cuCrealf
#define imag_part cuCimagf
#endif

extern "C" __global__ void complex_math(float* out) {
    const auto a = make_complex(1.0f, 2.0f);
    const auto b = make_complex(3.0f, 4.0f);
    const auto product = complex_mul(a, b);
    const auto conjugate = complex_conj(b);
    out[0] = real_part(product);
    out[1] = imag_part(product);
    out[2] = complex_abs(b);
    out[3] = real_part(conjugate);
    out[4] = imag_part(conjugate);
}
)";

}  // namespace kiln::test
