#include "device_header_texts.hpp"

namespace kiln::detail::header_text {

namespace {

constexpr std::string_view head = R"kiln(#ifndef KILN_WARP_H
#define KILN_WARP_H

// The threads in a warp (an AMD wavefront) on the target this source is compiled for, as a
// literal for constant expressions: HIP's warpSize is a variable, and NVRTC's is not constexpr.
#define KILN_WARP_SIZE )kiln";

// NVRTC 13 has only the _sync shuffles; HIP 5.2 has only the unmasked ones. Both shims exchange
// across the whole warp.
constexpr std::string_view body = R"kiln(

#if defined(__HIPCC_RTC__) || defined(__HIP__)
#define KILN_DETAIL_SHUFFLES(T)                                                      \
    __device__ inline T kiln_shfl_down(T value, unsigned int delta) {                \
        return __shfl_down(value, delta);                                            \
    }                                                                                \
    __device__ inline T kiln_shfl_xor(T value, int lane_mask) {                      \
        return __shfl_xor(value, lane_mask);                                         \
    }
#else
#define KILN_DETAIL_SHUFFLES(T)                                                      \
    __device__ inline T kiln_shfl_down(T value, unsigned int delta) {                \
        return __shfl_down_sync(0xffffffffU, value, delta);                          \
    }                                                                                \
    __device__ inline T kiln_shfl_xor(T value, int lane_mask) {                      \
        return __shfl_xor_sync(0xffffffffU, value, lane_mask);                       \
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
)kiln";

}  // namespace

std::string warp_h(int warp_size) {
    return std::string(head) + std::to_string(warp_size) + std::string(body);
}

// The host's shims, for user sources in the CUDA dialect (kiln/host_cuda.h, included before):
// templates, so that only a module that calls one runs its threads as fibers. Generated host
// kernels use only the size.
constexpr std::string_view host_body = R"kiln(

#if defined(KILN_HOST_CUDA)
template <typename T>
inline T kiln_shfl_down(T value, unsigned int delta) {
    return __shfl_down_sync(0xffffffffU, value, delta);
}
template <typename T>
inline T kiln_shfl_xor(T value, int lane_mask) {
    return __shfl_xor_sync(0xffffffffU, value, lane_mask);
}
template <typename T>
inline T kiln_shfl_down_words(const T& value, unsigned int delta) {
    unsigned int words[(sizeof(T) + 3) / 4] = {};
    memcpy(words, &value, sizeof(T));
    for (unsigned int& word : words) {
        word = kiln_shfl_down(word, delta);
    }
    T result;
    memcpy(&result, words, sizeof(T));
    return result;
}
#endif

#endif
)kiln";

std::string host_warp_h(int warp_size) {
    return std::string(head) + std::to_string(warp_size) + std::string(host_body);
}

}  // namespace kiln::detail::header_text
