/* The host kernel ABI, its one definition: how libkiln calls a kernel compiled for the host.
 * Every kernel's shared object exports, under the kernel's name after a prefix, a descriptor of its
 * parameters and an entry point that runs a range of the launch's blocks. Plain C, so that the
 * same text compiles inside a kernel (kiln/host.h includes it) and in libkiln
 * (backends/host/kernel_abi.hpp includes this file). No typedefs (libkiln's clang-tidy forbids
 * them; C++ needs none): C spells the types `struct kiln_host_grid` and so on.
 * KILN_HOST_ABI_VERSION guards against a kernel built against another layout: bump it with any
 * change to what follows. */
#ifndef KILN_HOST_ABI_H
#define KILN_HOST_ABI_H

#define KILN_HOST_ABI_VERSION 2u

/* A descriptor's symbol: the kernel's name after a prefix, so that it never clashes with a
 * function of the kernel's name (a CUDA-dialect kernel's own). KILN_HOST_KERNEL_PREFIX is the
 * prefix as a string, spelled once: the symbol of an empty name. */
#define KILN_HOST_KERNEL_SYMBOL(name) kiln_host_kernel_##name
#define KILN_HOST_ABI_STRING_(x) #x
#define KILN_HOST_ABI_STRING(x) KILN_HOST_ABI_STRING_(x)
#define KILN_HOST_KERNEL_PREFIX KILN_HOST_ABI_STRING(KILN_HOST_KERNEL_SYMBOL())

/* What a block may share (static and dynamic shared memory), as on most GPUs without opting in. */
#define KILN_HOST_SHARED_MEMORY_PER_BLOCK (48ull * 1024)

struct kiln_dim3 {
    unsigned x, y, z;
};

/* The warp functions of the CUDA dialect (kiln/host_cuda.h), as it names them to
 * kiln_host_runtime's warp. */
enum kiln_host_warp_kind {
    kiln_warp_shuffle,      /* __shfl_sync: operand is the source lane */
    kiln_warp_shuffle_up,   /* operand is the delta */
    kiln_warp_shuffle_down, /* operand is the delta */
    kiln_warp_shuffle_xor,  /* operand is the lane mask */
    kiln_warp_ballot,       /* value is the predicate */
    kiln_warp_any,
    kiln_warp_all,
    kiln_warp_sync,       /* __syncwarp */
    kiln_warp_activemask, /* operand is the call's line: lanes at one line are active together */
    kiln_warp_match_any,
    kiln_warp_match_all, /* result: the lanes' mask, and bit 32 set when all values were equal */
    kiln_warp_reduce_add,
    kiln_warp_reduce_min, /* unsigned; the signed forms below */
    kiln_warp_reduce_max,
    kiln_warp_reduce_min_signed,
    kiln_warp_reduce_max_signed,
    kiln_warp_reduce_and,
    kiln_warp_reduce_or,
    kiln_warp_reduce_xor
};

/* What libkiln lends a CUDA-dialect kernel whose threads must wait for each other (barriers, warp
 * functions): its block's threads run as fibers on the calling OS thread
 * (backends/host/block_scheduler.hpp). */
struct kiln_host_runtime {
    /* Runs thread(context, t) for every thread t of the block `block` (its index, x y z) of
     * `block_dim` threads as fibers, switching at every barrier and warp function, until all
     * return. Throws kiln::Error when they cannot all finish (a barrier some threads never
     * reach). */
    void (*run_block)(void (*thread)(void* context, unsigned index), void* context,
                      const unsigned* block, const unsigned* block_dim);
    /* Called by a fiber: waits until every thread of the block arrives, and returns how many
     * passed a nonzero predicate. */
    unsigned (*barrier)(int predicate);
    /* Called by a fiber: waits until the lanes of `mask` in its warp arrive, and returns this
     * lane's result of `kind` (a kiln_host_warp_kind) over their values. */
    unsigned long long (*warp)(unsigned kind, unsigned mask, unsigned long long value, int operand,
                               int width);
};

/* One call of a kernel's entry point: the launch's shape, and the blocks [first, end) to run, by
 * linear index (x fastest, then y, then z). */
struct kiln_host_grid {
    struct kiln_dim3 grid;
    struct kiln_dim3 block;
    unsigned long long shared_bytes;
    unsigned long long first;
    unsigned long long end;
    const struct kiln_host_runtime* runtime;
};

/* Exported as KILN_HOST_KERNEL_SYMBOL(name); a name expression that names a variable has one
 * with no entry. */
struct kiln_host_kernel {
    unsigned abi;   /* KILN_HOST_ABI_VERSION */
    unsigned count; /* parameters */
    const unsigned* sizes;
    const unsigned* alignments;
    void (*entry)(void* const* args, const struct kiln_host_grid* grid);
};

#endif
