#ifndef KILN_WARP_H
#define KILN_WARP_H

// The threads in a warp (an AMD wavefront) on the target this source is compiled for, as a
// literal for constant expressions: HIP's warpSize is a variable, and NVRTC's is not constexpr.
// kiln writes the target's size in place of 32 (device_headers).
#define KILN_WARP_SIZE 32

// The host's shims serve user sources in the CUDA dialect (kiln/host_cuda.h, included before) and
// are templates, so that only a module that calls one runs its threads as fibers. Generated host
// kernels use only the size.
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
