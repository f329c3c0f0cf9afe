// Kernel sources shared by the compile and device tests; each compiles under NVRTC and HIPRTC, but
// those named host_ under the host backend's compiler.
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

// axpy in the host backend's dialect: each call runs its blocks' threads in turn.
inline constexpr const char* host_axpy_source = R"(
static void axpy_body(const kiln_host_grid& grid, float a, const float* x, float* y, int n) {
    for (unsigned long long block = grid.first; block < grid.end; ++block) {
        for (unsigned thread = 0; thread < grid.block.x; ++thread) {
            const long long i = (long long)block * grid.block.x + thread;
            if (i < n) {
                y[i] = a * x[i] + y[i];
            }
        }
    }
}
KILN_HOST_KERNEL(axpy, axpy_body)
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

// The same kernels in the host backend's dialect (kiln/host.h), spinning on the clock the device
// kernels assume (2 GHz); `fail` throws, as a kernel may on the host. They include standard
// headers after the prelude, as a user's host code may: <memory> breaks if the prelude defines
// CUDA's __noinline__, which libstdc++ spells inside __attribute__((...)).
inline constexpr const char* host_helper_source = R"(
#include <memory>
#include <stdexcept>
#include <time.h>
static long long kiln_test_now_ns() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}
static void spin_body(const kiln_host_grid&, long long cycles) {
    const long long start = kiln_test_now_ns();
    while (kiln_test_now_ns() - start < cycles / 2) {
    }
}
static void store_body(const kiln_host_grid&, int* target, int value) { *target = value; }
static void copy_int_body(const kiln_host_grid&, const int* source, int* target) {
    *target = *source;
}
static void increment_body(const kiln_host_grid&, int* target) { *target += 1; }
static void fail_body(const kiln_host_grid&, int* target) {
    throw std::runtime_error("kiln test kernel failed on purpose, target " +
                             std::to_string(*target));
}
KILN_HOST_KERNEL(spin, spin_body)
KILN_HOST_KERNEL(store, store_body)
KILN_HOST_KERNEL(copy_int, copy_int_body)
KILN_HOST_KERNEL(increment, increment_body)
KILN_HOST_KERNEL(fail, fail_body)
)";

}  // namespace kiln::test
