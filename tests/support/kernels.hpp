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
