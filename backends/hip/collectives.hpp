// The HIP backend's library of collectives: RCCL (NCCL's API) on HIP's AMD platform, NCCL itself
// on its NVIDIA platform, loaded at run time when kiln::distributed first needs it. Optional:
// without it everything else runs, and a Communicator says why not.
#pragma once

#include "../collectives.hpp"
#include "../vendor_library.hpp"

#if defined(__HIP_PLATFORM_NVIDIA__)
#include "../cuda/collectives.hpp"
#else
#include "amd_platform.hpp"
#endif

namespace kiln::detail::hip {

#if defined(__HIP_PLATFORM_NVIDIA__)
using Nccl = cuda::Nccl;
#else
inline VendorLibrary& rccl_library() {
    // Never destroyed: see VendorLibrary.
    static auto& library =
        *new VendorLibrary(rocm_search("RCCL", versioned_names("librccl.so", {1})));
    return library;
}

using Nccl = NcclTable<&rccl_library>;
#endif

}  // namespace kiln::detail::hip
