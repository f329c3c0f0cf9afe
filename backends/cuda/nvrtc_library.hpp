// NVRTC, loaded at run time, and what it says about itself: its error texts and the targets it
// compiles for. Shared by the CUDA backend and by the HIP backend on HIP's NVIDIA platform, whose
// HIPRTC is NVRTC.
#pragma once

#include "../entry.hpp"
#include "../vendor_library.hpp"

#include <cuda_runtime_api.h>
#include <nvrtc.h>

#include <string>
#include <vector>

namespace kiln::detail::cuda {

#ifndef KILN_CUDA_LIBRARY_DIR
#define KILN_CUDA_LIBRARY_DIR ""
#endif

// NVRTC, whichever major version the machine has, preferring the one kiln was built with.
inline VendorLibrary& nvrtc_library() {
    // Never destroyed: see VendorLibrary.
    static auto& library = *new VendorLibrary(
        {.what = "NVRTC",
         .names = versioned_names("libnvrtc.so", {CUDART_VERSION / 1000, 13, 12}),
         .root_variables = {"CUDA_PATH", "CUDA_HOME"},
         .roots = {"/usr/local/cuda"},
         .subdirectories = {"lib64", "lib"},
         .directories = {KILN_CUDA_LIBRARY_DIR}});
    return library;
}

// NVRTC's error texts and targets; the backends' compiler tables add the compile calls.
struct NvrtcTargets {
    static VendorLibrary& library() { return nvrtc_library(); }
    static constexpr nvrtcResult success = NVRTC_SUCCESS;
    static std::string error_text(nvrtcResult rc) { return get_error_string(rc); }

    KILN_ENTRY(get_error_string, nvrtcGetErrorString);
    KILN_ENTRY(get_supported_arch_count, nvrtcGetNumSupportedArchs);
    KILN_ENTRY(get_supported_archs, nvrtcGetSupportedArchs);

    // A device's own target, from its compute capability: sm_90 for 9.0.
    static std::string device_target(int major, int minor) {
        return "sm_" + std::to_string(major) + std::to_string(minor);
    }

    // An sm_ target makes NVRTC emit a cubin for it.
    static std::vector<std::string> base_options(const std::string& target) {
        return {"-arch=" + target, "-std=c++17"};
    }

    // "sm_90a", "sm_100f" and "compute_90" are all variants of "sm_90" / "sm_100".
    static std::string base_target(std::string target) {
        if (target.starts_with("compute_")) {
            target = "sm_" + target.substr(8);
        }
        while (!target.empty() && target.back() >= 'a' && target.back() <= 'z') {
            target.pop_back();
        }
        return target;
    }

    static std::vector<std::string> supported_targets() {
        int count = 0;
        call<NvrtcTargets>(get_supported_arch_count, &count);
        std::vector<int> archs(static_cast<std::size_t>(count));
        call<NvrtcTargets>(get_supported_archs, archs.data());
        std::vector<std::string> targets;
        targets.reserve(archs.size());
        for (int arch : archs) {
            targets.push_back("sm_" + std::to_string(arch));
        }
        return targets;
    }
};

}  // namespace kiln::detail::cuda
