#include "device_header_texts.hpp"

namespace kiln::detail::header_text {

namespace {

// One spelling for kernels written once for both vendors. NVIDIA has double atomicAdd from
// sm_60 only.
constexpr std::string_view text = R"kiln(#ifndef KILN_ATOMIC_H
#define KILN_ATOMIC_H

// Adds `value` to `*address` atomically and returns the value it replaced.
__device__ inline int kiln_atomic_add(int* address, int value) {
    return atomicAdd(address, value);
}
__device__ inline unsigned int kiln_atomic_add(unsigned int* address, unsigned int value) {
    return atomicAdd(address, value);
}
__device__ inline unsigned long long kiln_atomic_add(unsigned long long* address,
                                                     unsigned long long value) {
    return atomicAdd(address, value);
}
__device__ inline float kiln_atomic_add(float* address, float value) {
    return atomicAdd(address, value);
}
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
__device__ inline double kiln_atomic_add(double* address, double value) {
    return atomicAdd(address, value);
}
#endif

#endif
)kiln";

// The host's: GCC's atomic builtins, and a compare-and-swap loop for floating point, which they
// do not add. Relaxed, as CUDA's atomicAdd is.
constexpr std::string_view host_text = R"kiln(#ifndef KILN_ATOMIC_H
#define KILN_ATOMIC_H

template <class T>
inline T kiln_atomic_add(T* address, T value) {
    return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
}
template <class T>
inline T kiln_atomic_add_floating(T* address, T value) {
    T old;
    __atomic_load(address, &old, __ATOMIC_RELAXED);
    T sum;
    do {
        sum = old + value;
    } while (!__atomic_compare_exchange(address, &old, &sum, true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
    return old;
}
inline float kiln_atomic_add(float* address, float value) {
    return kiln_atomic_add_floating(address, value);
}
inline double kiln_atomic_add(double* address, double value) {
    return kiln_atomic_add_floating(address, value);
}

#endif
)kiln";

}  // namespace

std::string_view atomic_h() noexcept {
    return text;
}

std::string_view host_atomic_h() noexcept {
    return host_text;
}

}  // namespace kiln::detail::header_text
