// The host dialect's kiln/atomic.h: GCC's atomic builtins, and a compare-and-swap loop for floating
// point, which they do not add. Relaxed, as CUDA's atomicAdd is.
#ifndef KILN_ATOMIC_H
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
    } while (
        !__atomic_compare_exchange(address, &old, &sum, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return old;
}
inline float kiln_atomic_add(float* address, float value) {
    return kiln_atomic_add_floating(address, value);
}
inline double kiln_atomic_add(double* address, double value) {
    return kiln_atomic_add_floating(address, value);
}

#endif
