// What the compiler made of one kernel on one device (CuPy's RawKernel attributes).
#pragma once

namespace kiln {

struct KernelAttributes {
    int max_threads_per_block = 0;
    int num_regs = 0;
    int shared_size_bytes = 0;
    int const_size_bytes = 0;
    int local_size_bytes = 0;
    int ptx_version = 0;
    int binary_version = 0;
    int max_dynamic_shared_size_bytes = 0;
};

}  // namespace kiln
