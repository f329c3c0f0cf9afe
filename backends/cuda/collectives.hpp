// The CUDA backend's library of collectives: NCCL, loaded at run time when kiln::distributed
// first needs it. Optional: without it everything else runs, and a Communicator says why not.
#pragma once

#include "../collectives.hpp"
#include "../vendor_library.hpp"

#ifndef KILN_CUDA_LIBRARY_DIR
#define KILN_CUDA_LIBRARY_DIR ""
#endif

namespace kiln::detail::cuda {

inline VendorLibrary& nccl_library() {
    // Never destroyed: see VendorLibrary.
    static auto& library =
        *new VendorLibrary({.what = "NCCL",
                            .names = versioned_names("libnccl.so", {2}),
                            .root_variables = {"NCCL_HOME", "CUDA_PATH", "CUDA_HOME"},
                            .roots = {"/usr/local/cuda"},
                            .subdirectories = {"lib64", "lib"},
                            .directories = {KILN_CUDA_LIBRARY_DIR}});
    return library;
}

using Nccl = NcclTable<&nccl_library>;

}  // namespace kiln::detail::cuda
