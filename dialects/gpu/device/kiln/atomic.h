// One spelling for kernels written once for both vendors. NVIDIA has double atomicAdd from
// sm_60 only.
#ifndef KILN_ATOMIC_H
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
