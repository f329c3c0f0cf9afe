// How libkiln calls a kernel compiled for the host: every kernel's shared object exports, under
// the kernel's name, a descriptor of its parameters and an entry point that runs a range of the
// launch's blocks. kiln's device header kiln/host.h (core/codegen/device_header_host.cpp) spells
// the same layout for the kernel's side; `abi` guards against a mismatch.
#pragma once

#include <array>

namespace kiln::detail::host {

inline constexpr unsigned kernel_abi_version = 2;

// A kernel's descriptor is exported under its name after this prefix.
inline constexpr const char* kernel_symbol_prefix = "kiln_host_kernel_";

// What a block may share (static and dynamic shared memory), as on most GPUs without opting in.
inline constexpr unsigned long long shared_memory_per_block = 48ULL * 1024;

// The warp functions of the CUDA dialect, as the kernel's side names them to BlockRuntime::warp.
enum class WarpKind : unsigned {
    shuffle,       // __shfl_sync: operand is the source lane
    shuffle_up,    // operand is the delta
    shuffle_down,  // operand is the delta
    shuffle_xor,   // operand is the lane mask
    ballot,        // value is the predicate
    any,
    all,
    sync,        // __syncwarp
    activemask,  // operand is the call's source line: lanes at the same line are active together
    match_any,
    match_all,  // result: the lanes' mask, and bit 32 set when all values were equal
    reduce_add,
    reduce_min,  // unsigned; the signed forms below
    reduce_max,
    reduce_min_signed,
    reduce_max_signed,
    reduce_and,
    reduce_or,
    reduce_xor,
};

// What libkiln lends a CUDA-dialect kernel whose threads must wait for each other (barriers, warp
// functions): its block's threads run as fibers on the calling OS thread (block_scheduler.hpp).
struct BlockRuntime {
    // Runs thread(context, t) for every thread t of the block `block` (its index, x y z) of
    // `block_dim` threads as fibers, switching at every barrier and warp function, until all
    // return. Throws Error when they cannot all finish (a barrier some threads never reach).
    void (*run_block)(void (*thread)(void* context, unsigned index), void* context,
                      const unsigned* block, const unsigned* block_dim);
    // Called by a fiber: waits until every thread of the block arrives, and returns how many
    // passed a nonzero predicate.
    unsigned (*barrier)(int predicate);
    // Called by a fiber: waits until the lanes of `mask` in its warp arrive, and returns this
    // lane's result of `kind` (WarpKind) over their values.
    unsigned long long (*warp)(unsigned kind, unsigned mask, unsigned long long value, int operand,
                               int width);
};

// One call of a kernel's entry point: the launch's shape, and the blocks [first, end) to run, by
// linear index (x fastest, then y, then z).
struct LaunchGrid {
    std::array<unsigned, 3> grid;  // laid out as the kernel's unsigned x, y, z
    std::array<unsigned, 3> block;
    unsigned long long shared_bytes;
    unsigned long long first;
    unsigned long long end;
    const BlockRuntime* runtime;
};

using KernelEntry = void (*)(void* const* args, const LaunchGrid* grid);

struct KernelDescriptor {
    unsigned abi;
    unsigned count;  // parameters
    const unsigned* sizes;
    const unsigned* alignments;
    KernelEntry entry;
};

}  // namespace kiln::detail::host
