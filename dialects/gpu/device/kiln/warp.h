#ifndef KILN_WARP_H
#define KILN_WARP_H

// The threads in a warp (an AMD wavefront) on the target this source is compiled for, as a
// literal for constant expressions: HIP's warpSize is a variable, and NVRTC's is not constexpr.
// kiln writes the target's size in place of 32 (device_headers).
#define KILN_WARP_SIZE 32

// NVRTC 13 has only the _sync shuffles; HIP 5.2 has only the unmasked ones. Both shims exchange
// across the whole warp.
#if defined(__HIPCC_RTC__) || defined(__HIP__)
#define KILN_DETAIL_SHUFFLES(T)                                       \
    __device__ inline T kiln_shfl_down(T value, unsigned int delta) { \
        return __shfl_down(value, delta);                             \
    }                                                                 \
    __device__ inline T kiln_shfl_xor(T value, int lane_mask) {       \
        return __shfl_xor(value, lane_mask);                          \
    }
#else
#define KILN_DETAIL_SHUFFLES(T)                                       \
    __device__ inline T kiln_shfl_down(T value, unsigned int delta) { \
        return __shfl_down_sync(0xffffffffU, value, delta);           \
    }                                                                 \
    __device__ inline T kiln_shfl_xor(T value, int lane_mask) {       \
        return __shfl_xor_sync(0xffffffffU, value, lane_mask);        \
    }
#endif

KILN_DETAIL_SHUFFLES(int)
KILN_DETAIL_SHUFFLES(unsigned int)
KILN_DETAIL_SHUFFLES(long long)
KILN_DETAIL_SHUFFLES(unsigned long long)
KILN_DETAIL_SHUFFLES(float)
KILN_DETAIL_SHUFFLES(double)
#undef KILN_DETAIL_SHUFFLES

// Any trivially copyable, default-constructible value, moved as 32-bit words (HIPRTC declares no
// memcpy; NVRTC has no __builtin_memcpy).
#if defined(__HIPCC_RTC__) || defined(__HIP__)
#define KILN_DETAIL_MEMCPY __builtin_memcpy
#else
#define KILN_DETAIL_MEMCPY memcpy
#endif
template <typename T>
__device__ inline T kiln_shfl_down_words(const T& value, unsigned int delta) {
    unsigned int words[(sizeof(T) + 3) / 4] = {};
    KILN_DETAIL_MEMCPY(words, &value, sizeof(T));
    for (unsigned int& word : words) {
        word = kiln_shfl_down(word, delta);
    }
    T result;
    KILN_DETAIL_MEMCPY(&result, words, sizeof(T));
    return result;
}
#undef KILN_DETAIL_MEMCPY

#endif
