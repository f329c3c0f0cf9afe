// What the HIP backend's table (api.hpp) takes from HIP's NVIDIA platform, where HIP's headers
// map every hip* and hiprtc* function onto an inline wrapper over the CUDA runtime, the CUDA
// driver and NVRTC. The table's entries are those wrappers, linked into libkiln; the CUDA runtime
// is linked statically, as in the CUDA backend, and the driver and NVRTC functions the wrappers
// call are defined in nvidia_functions.cpp, which forwards them to the libraries found at run
// time. libkiln therefore links no vendor library here either. What differs from AMD:
// - the compiler is NVRTC, so kernels see CUDA's dialect and CUDA's toolkit headers
//   (backend_traits.cpp gives the HIP backend NVIDIA's warp size of 32, -G and kDLCUDA);
// - targets are sm_XX and code objects cubins: hiprtcGetCode would return PTX, which the driver
//   compiles again at every load, so the table takes the cubin NVRTC builds beside it;
// - a block's dynamic shared memory stops at 48 KiB: HIP 5.2 has no call that raises a module
//   function's limit, the same as on AMD, whose limit is 64 KiB.
#pragma once

#include "../cuda/nvrtc_library.hpp"
#include "../cuda/toolkit_headers.hpp"
#include "../entry.hpp"
#include "../vendor_library.hpp"
#include "nvidia_headers.hpp"

#include <string>
#include <vector>

namespace kiln::detail::hip {

// The table's entries: HIP's inline wrappers, linked in.
#define KILN_HIP_ENTRY(member, function) KILN_LINKED_ENTRY(member, function)
#define KILN_HIP_OVERLOAD_ENTRY(member, function, type) \
    KILN_LINKED_OVERLOAD_ENTRY(member, function, type)

// The runtime side of the table.
struct Platform {
    // The libraries loaded at run time; the backend is available when all of them are. The CUDA
    // runtime is linked and finds the driver, whose functions come from it (nvidia_functions.cpp).
    static std::vector<VendorLibrary*> libraries() { return {&cuda::nvrtc_library()}; }
    static std::string arch(const hipDeviceProp_t& p) {
        return cuda::NvrtcTargets::device_target(p.major, p.minor);
    }
    // The dynamic shared memory a block may have without an opt-in.
    static constexpr int dynamic_shared_memory_limit = 48 * 1024;
    // Makes every launch synchronous, so that a fault is reported by its own launch.
    static constexpr const char* launch_blocking_variable = "CUDA_LAUNCH_BLOCKING";
};

// The cubin for the program's sm_XX target, in HIPRTC's terms, as HIP's wrappers do for PTX.
inline hiprtcResult cubin_size(hiprtcProgram program, std::size_t* bytes) {
    return nvrtcResultTohiprtcResult(nvrtcGetCUBINSize(program, bytes));
}
inline hiprtcResult cubin(hiprtcProgram program, char* image) {
    return nvrtcResultTohiprtcResult(nvrtcGetCUBIN(program, image));
}

// The compiler side of the table: NVRTC behind HIPRTC's names, and CUDA's toolkit headers.
struct CompilerPlatform {
    static constexpr const char* compiler_name = "NVRTC";

    static constexpr Entry<&cubin_size> get_code_size{"nvrtcGetCUBINSize"};
    static constexpr Entry<&cubin> get_code{"nvrtcGetCUBIN"};

    static const ToolkitHeaders& toolkit_headers() {
        return cuda::toolkit_headers(cuda::nvrtc_library().path());
    }
    static std::vector<std::string> base_options(const std::string& target) {
        return cuda::NvrtcTargets::base_options(target);
    }
    static std::string base_target(const std::string& target) {
        return cuda::NvrtcTargets::base_target(target);
    }
    static std::vector<std::string> supported_targets() {
        return cuda::NvrtcTargets::supported_targets();
    }
};

}  // namespace kiln::detail::hip
