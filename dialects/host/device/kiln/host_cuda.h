// The host backend's CUDA dialect: what a user's CUDA source (RawKernel, RawModule, JIT kernels)
// needs besides kiln/host.h to compile unchanged for the CPU. A kernel's threads are either a
// plain loop (the kernel called once per thread, inlined into the loop over the block) or, when
// the module calls a barrier or warp function anywhere, fibers that libkiln switches between at
// each of them (backends/host/block_scheduler.cpp). Which one is decided when the module loads:
// calling one of those functions instantiates kiln_cuda_fiber_marker, whose initializer sets
// kiln_cuda_fibers. Everything per thread or per block is thread_local: a block runs wholly on
// one OS thread, so its fibers share one copy of __shared__ memory while blocks that run at once
// on other threads have their own. KILN_CUDA_EXPORT (written after the source by the host
// compiler) exports a __global__ function as a host kernel.
#ifndef KILN_HOST_CUDA_H
#define KILN_HOST_CUDA_H

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#include <memory>
#include <stdexcept>

#define KILN_HOST_CUDA 1
// CUDA sources may write __noinline__. Defined after the standard headers that spell it inside
// __attribute__((...)), which this macro would break; NVRTC offers a CUDA source no others.
#define __noinline__ __attribute__((noinline))
#define __shared__ thread_local
#define __constant__
#define __managed__
#define __grid_constant__
#define __align__(n) __attribute__((aligned(n)))
#define __CUDA_ARCH_HOST__ 1

#include <kiln/host_cuda_math.h>

struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

static thread_local uint3 threadIdx;
static thread_local uint3 blockIdx;
static thread_local dim3 blockDim;
static thread_local dim3 gridDim;
static constexpr int warpSize = 32;

static thread_local const kiln_host_runtime* kiln_cuda_runtime;
static bool kiln_cuda_fibers;

// In no namespace of a name, so that every module has its own (not one per process, as the
// dynamic linker makes of a template's static member otherwise).
namespace {
template <class T>
struct kiln_cuda_fiber_marker {
    static const bool value;
};
template <class T>
const bool kiln_cuda_fiber_marker<T>::value = (kiln_cuda_fibers = true);
}  // namespace

// Waits in the block's runtime; the fiber's own threadIdx is restored, since the others' runs
// wrote theirs in between.
template <class T>
inline unsigned long long kiln_cuda_wait_warp(unsigned kind, unsigned mask,
                                              unsigned long long value, int operand, int width) {
    (void)&kiln_cuda_fiber_marker<T>::value;
    const uint3 self = threadIdx;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    const unsigned long long result = kiln_cuda_runtime->warp(kind, mask, value, operand, width);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    threadIdx = self;
    return result;
}
template <class T>
inline unsigned kiln_cuda_wait_barrier(int predicate) {
    (void)&kiln_cuda_fiber_marker<T>::value;
    const uint3 self = threadIdx;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    const unsigned passed = kiln_cuda_runtime->barrier(predicate);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    threadIdx = self;
    return passed;
}

template <class K = void>
inline void __syncthreads() {
    (void)kiln_cuda_wait_barrier<K>(0);
}
template <class K = void>
inline int __syncthreads_count(int predicate) {
    return (int)kiln_cuda_wait_barrier<K>(predicate);
}
template <class K = void>
inline int __syncthreads_and(int predicate) {
    return kiln_cuda_wait_barrier<K>(predicate) == blockDim.x * blockDim.y * blockDim.z;
}
template <class K = void>
inline int __syncthreads_or(int predicate) {
    return kiln_cuda_wait_barrier<K>(predicate) != 0;
}

// A value of up to 8 bytes through the runtime, as its bytes.
template <class T>
inline unsigned long long kiln_cuda_bits(const T& value) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                  "warp functions exchange trivially copyable values of at most 8 bytes");
    unsigned long long bits = 0;
    memcpy(&bits, &value, sizeof(T));
    return bits;
}
template <class T>
inline T kiln_cuda_from_bits(unsigned long long bits) {
    T value;
    memcpy(&value, &bits, sizeof(T));
    return value;
}
template <class T>
inline T kiln_cuda_shuffle(unsigned kind, unsigned mask, T value, int operand, int width) {
    return kiln_cuda_from_bits<T>(
        kiln_cuda_wait_warp<T>(kind, mask, kiln_cuda_bits(value), operand, width));
}

template <class T>
inline T __shfl_sync(unsigned mask, T value, int source, int width = warpSize) {
    return kiln_cuda_shuffle(kiln_warp_shuffle, mask, value, source, width);
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T value, unsigned delta, int width = warpSize) {
    return kiln_cuda_shuffle(kiln_warp_shuffle_up, mask, value, (int)delta, width);
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T value, unsigned delta, int width = warpSize) {
    return kiln_cuda_shuffle(kiln_warp_shuffle_down, mask, value, (int)delta, width);
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T value, int lane_mask, int width = warpSize) {
    return kiln_cuda_shuffle(kiln_warp_shuffle_xor, mask, value, lane_mask, width);
}
template <class K = void>
inline unsigned __ballot_sync(unsigned mask, int predicate) {
    return (unsigned)kiln_cuda_wait_warp<K>(kiln_warp_ballot, mask, predicate != 0, 0, warpSize);
}
template <class K = void>
inline int __any_sync(unsigned mask, int predicate) {
    return (int)kiln_cuda_wait_warp<K>(kiln_warp_any, mask, predicate != 0, 0, warpSize);
}
template <class K = void>
inline int __all_sync(unsigned mask, int predicate) {
    return (int)kiln_cuda_wait_warp<K>(kiln_warp_all, mask, predicate != 0, 0, warpSize);
}
template <class K = void>
inline void __syncwarp(unsigned mask = 0xffffffffu) {
    (void)kiln_cuda_wait_warp<K>(kiln_warp_sync, mask, 0, 0, warpSize);
}
// The lanes active together: those that call it from the same line at the same time.
template <class K = void>
inline unsigned __activemask(int line = __builtin_LINE()) {
    return (unsigned)kiln_cuda_wait_warp<K>(kiln_warp_activemask, 0, 0, line, warpSize);
}
template <class T>
inline unsigned __match_any_sync(unsigned mask, T value) {
    return (unsigned)kiln_cuda_wait_warp<T>(kiln_warp_match_any, mask, kiln_cuda_bits(value), 0,
                                            warpSize);
}
template <class T>
inline unsigned __match_all_sync(unsigned mask, T value, int* predicate) {
    const unsigned long long result =
        kiln_cuda_wait_warp<T>(kiln_warp_match_all, mask, kiln_cuda_bits(value), 0, warpSize);
    *predicate = (int)(result >> 32);
    return (unsigned)result;
}
#define KILN_CUDA_REDUCE(name, kind, T)                                             \
    template <class K = void>                                                       \
    inline T name(unsigned mask, T value) {                                         \
        return (T)kiln_cuda_wait_warp<K>(kind, mask, (unsigned)value, 0, warpSize); \
    }
KILN_CUDA_REDUCE(__reduce_add_sync, kiln_warp_reduce_add, unsigned)
KILN_CUDA_REDUCE(__reduce_min_sync, kiln_warp_reduce_min, unsigned)
KILN_CUDA_REDUCE(__reduce_max_sync, kiln_warp_reduce_max, unsigned)
KILN_CUDA_REDUCE(__reduce_and_sync, kiln_warp_reduce_and, unsigned)
KILN_CUDA_REDUCE(__reduce_or_sync, kiln_warp_reduce_or, unsigned)
KILN_CUDA_REDUCE(__reduce_xor_sync, kiln_warp_reduce_xor, unsigned)
#undef KILN_CUDA_REDUCE
template <class K = void>
inline int __reduce_add_sync(unsigned mask, int value) {
    return (int)kiln_cuda_wait_warp<K>(kiln_warp_reduce_add, mask, (unsigned)value, 0, warpSize);
}
template <class K = void>
inline int __reduce_min_sync(unsigned mask, int value) {
    return (int)kiln_cuda_wait_warp<K>(kiln_warp_reduce_min_signed, mask, (unsigned)value, 0,
                                       warpSize);
}
template <class K = void>
inline int __reduce_max_sync(unsigned mask, int value) {
    return (int)kiln_cuda_wait_warp<K>(kiln_warp_reduce_max_signed, mask, (unsigned)value, 0,
                                       warpSize);
}

// The block [linear index] of the grid, x fastest.
inline void kiln_cuda_enter_block(unsigned long long block) {
    blockIdx.x = (unsigned)(block % gridDim.x);
    blockIdx.y = (unsigned)(block / gridDim.x % gridDim.y);
    blockIdx.z = (unsigned)(block / gridDim.x / gridDim.y);
}

// Not a kernel: a name expression may name a variable, whose descriptor has no entry.
template <class F, F f>
struct kiln_cuda_kernel {
    static constexpr kiln_host_kernel descriptor = {KILN_HOST_ABI_VERSION, 0u, nullptr, nullptr,
                                                    nullptr};
};

template <class... P, void (*Kernel)(P...)>
struct kiln_cuda_kernel<void (*)(P...), Kernel> {
    static constexpr unsigned sizes[sizeof...(P) + 1] = {unsigned(sizeof(P))..., 0u};
    static constexpr unsigned alignments[sizeof...(P) + 1] = {unsigned(alignof(P))..., 0u};

    template <size_t... I>
    static void call(void* const* args, std::index_sequence<I...>) {
        Kernel(*static_cast<P*>(args[I])...);
    }
    // A fiber: one thread of the block.
    static void thread(void* args, unsigned index) {
        threadIdx.x = index % blockDim.x;
        threadIdx.y = index / blockDim.x % blockDim.y;
        threadIdx.z = index / blockDim.x / blockDim.y;
        call(static_cast<void* const*>(args), std::index_sequence_for<P...>());
    }
    // The plain loop: the arguments are locals, so the kernel inlined here keeps them in
    // registers, and the loop over x can vectorise.
    __attribute__((hot)) static void loop(const kiln_host_grid& grid, P... params) {
        for (unsigned long long block = grid.first; block < grid.end; ++block) {
            kiln_cuda_enter_block(block);
            for (unsigned z = 0; z < grid.block.z; ++z) {
                for (unsigned y = 0; y < grid.block.y; ++y) {
                    for (unsigned x = 0; x < grid.block.x; ++x) {
                        threadIdx = uint3{x, y, z};
                        Kernel(params...);
                    }
                }
            }
        }
    }
    template <size_t... I>
    static void plain(void* const* args, const kiln_host_grid& grid, std::index_sequence<I...>) {
        loop(grid, *static_cast<P*>(args[I])...);
    }
    static void entry(void* const* args, const kiln_host_grid* grid) {
        gridDim = dim3(grid->grid.x, grid->grid.y, grid->grid.z);
        blockDim = dim3(grid->block.x, grid->block.y, grid->block.z);
        kiln_cuda_runtime = grid->runtime;
        if (!kiln_cuda_fibers) {
            plain(args, *grid, std::index_sequence_for<P...>());
            return;
        }
        const unsigned dims[3] = {blockDim.x, blockDim.y, blockDim.z};
        for (unsigned long long block = grid->first; block < grid->end; ++block) {
            kiln_cuda_enter_block(block);
            const unsigned index[3] = {blockIdx.x, blockIdx.y, blockIdx.z};
            grid->runtime->run_block(&thread, const_cast<void**>(args), index, dims);
        }
    }
    static constexpr kiln_host_kernel descriptor = {KILN_HOST_ABI_VERSION, unsigned(sizeof...(P)),
                                                    sizes, alignments, &entry};
};

#define KILN_CUDA_EXPORT(symbol, ...)                                   \
    extern "C" const kiln_host_kernel KILN_HOST_KERNEL_SYMBOL(symbol) = \
        kiln_cuda_kernel<decltype(&__VA_ARGS__), &__VA_ARGS__>::descriptor;

#endif
