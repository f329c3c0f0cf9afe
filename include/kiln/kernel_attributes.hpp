/// @file
/// What the compiler made of one kernel on one device (CuPy's RawKernel attributes).
#pragma once

namespace kiln {

/// A compiled kernel's attributes on one device (cudaFuncAttributes; CuPy's RawKernel.attributes).
struct KernelAttributes {
    /// The most threads per block the kernel can be launched with.
    int max_threads_per_block = 0;
    /// Registers per thread.
    int num_regs = 0;
    /// Bytes of static shared memory.
    int shared_size_bytes = 0;
    /// Bytes of constant memory.
    int const_size_bytes = 0;
    /// Bytes of local memory per thread.
    int local_size_bytes = 0;
    /// The PTX version it was compiled for, as major * 10 + minor (as the driver reports it).
    int ptx_version = 0;
    /// The binary architecture version, as major * 10 + minor (as the driver reports it).
    int binary_version = 0;
    /// The most dynamic shared memory a launch may ask for.
    int max_dynamic_shared_size_bytes = 0;
};

}  // namespace kiln
