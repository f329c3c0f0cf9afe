// Kernel sources shared by the compile and device tests; each compiles under NVRTC and HIPRTC.
#pragma once

namespace kiln::test {

inline constexpr const char* axpy_source = R"(
extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}
)";

}  // namespace kiln::test

namespace kiln::test {

// Small kernels for ordering and timing tests; each compiles under NVRTC and HIPRTC.
inline constexpr const char* helper_source = R"(
extern "C" __global__ void spin(long long cycles) {
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
}
extern "C" __global__ void store(int* target, int value) { *target = value; }
extern "C" __global__ void copy_int(const int* source, int* target) { *target = *source; }
extern "C" __global__ void increment(int* target) { *target += 1; }
extern "C" __global__ void write_through(int* target) { *target = 42; }
)";

}  // namespace kiln::test
