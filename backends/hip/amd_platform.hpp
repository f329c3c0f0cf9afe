// What the HIP backend's table (api.hpp) takes from HIP's AMD platform: the HIP runtime, HIPRTC
// and amd_comgr, loaded at run time; gfx targets; code objects for the AMDGPU ISA.
#pragma once

#include "../entry.hpp"
#include "../vendor_library.hpp"
#include "toolkit_headers.hpp"

#include <amd_comgr.h>
#include <hip/hip_runtime_api.h>
#include <hip/hiprtc.h>

#include <string>
#include <vector>

namespace kiln::detail::hip {

#ifndef KILN_HIP_LIBRARY_DIR
#define KILN_HIP_LIBRARY_DIR ""
#endif

// The table's entries: functions the libraries below export, resolved when they load.
#define KILN_HIP_ENTRY(member, function) KILN_ENTRY(member, function)
#define KILN_HIP_OVERLOAD_ENTRY(member, function, type) KILN_OVERLOAD_ENTRY(member, function, type)

// Where ROCm keeps its libraries, for the three libraries below.
inline LibrarySearch rocm_search(std::string what, std::vector<std::string> names) {
    return {.what = std::move(what),
            .names = std::move(names),
            .root_variables = {"ROCM_PATH", "HIP_PATH"},
            .roots = {"/opt/rocm"},
            .subdirectories = {"lib", "lib64"},
            .directories = {KILN_HIP_LIBRARY_DIR}};
}

// The HIP runtime, preferring the major version kiln was built with (ROCm 6 and later keep
// exporting the 5.x ABI's names, such as hipGetDeviceProperties with the older layout).
inline VendorLibrary& hip_library() {
    // Never destroyed: see VendorLibrary.
    static auto& library = *new VendorLibrary(rocm_search(
        "HIP runtime", versioned_names("libamdhip64.so", {HIP_VERSION_MAJOR, 7, 6, 5})));
    return library;
}

// HIPRTC: its own library since ROCm 6, inside the HIP runtime before.
inline VendorLibrary& hiprtc_library() {
    static auto& library = *new VendorLibrary([] {
        auto names = versioned_names("libhiprtc.so", {HIP_VERSION_MAJOR, 7, 6, 5});
        for (auto& name : versioned_names("libamdhip64.so", {HIP_VERSION_MAJOR, 7, 6, 5})) {
            names.push_back(std::move(name));
        }
        return rocm_search("HIPRTC", std::move(names));
    }());
    return library;
}

// The code-object manager, whose ISA list says which targets HIPRTC compiles for.
inline VendorLibrary& comgr_library() {
    static auto& library = *new VendorLibrary(
        rocm_search("amd_comgr",
                    versioned_names("libamd_comgr.so", {AMD_COMGR_INTERFACE_VERSION_MAJOR, 3, 2})));
    return library;
}

// The code-object manager's ISA list.
struct Comgr {
    static VendorLibrary& library() { return comgr_library(); }
    static constexpr amd_comgr_status_t success = AMD_COMGR_STATUS_SUCCESS;
    static std::string error_text(amd_comgr_status_t rc) {
        const char* text = nullptr;
        return status_string(rc, &text) == AMD_COMGR_STATUS_SUCCESS && text != nullptr
                   ? text
                   : "unknown amd_comgr status";
    }

    KILN_ENTRY(status_string, amd_comgr_status_string);
    KILN_ENTRY(get_isa_count, amd_comgr_get_isa_count);
    KILN_ENTRY(get_isa_name, amd_comgr_get_isa_name);
};

// The runtime side of the table.
struct Platform {
    static VendorLibrary& library() { return hip_library(); }
    // The libraries loaded at run time; the backend is available when all of them are.
    static std::vector<VendorLibrary*> libraries() {
        return {&hip_library(), &hiprtc_library(), &comgr_library()};
    }
    // Code objects load only on a device whose full target ID matches.
    static std::string arch(const hipDeviceProp_t& p) { return &p.gcnArchName[0]; }
    // The dynamic shared memory a block may have: a fixed 64 KiB, with no opt-in.
    static constexpr int dynamic_shared_memory_limit = 64 * 1024;
    // Makes every launch synchronous, so that a fault is reported by its own launch.
    static constexpr const char* launch_blocking_variable = "HIP_LAUNCH_BLOCKING";
};

// The compiler side of the table: HIPRTC, its code objects and the processors it knows.
struct CompilerPlatform {
    static VendorLibrary& library() { return hiprtc_library(); }
    static constexpr const char* compiler_name = "HIPRTC";

    KILN_ENTRY(get_code_size, hiprtcGetCodeSize);
    KILN_ENTRY(get_code, hiprtcGetCode);

    static const ToolkitHeaders& toolkit_headers() {
        return hip::toolkit_headers(hiprtc_library().path());
    }

    // HIPRTC prepends -std=c++14; a later option wins.
    static std::vector<std::string> base_options(const std::string& target) {
        return {"--offload-arch=" + target, "-std=c++17"};
    }

    // "gfx90a:sramecc+:xnack-" is processor gfx90a with two features.
    static std::string base_target(const std::string& target) {
        return target.substr(0, target.find(':'));
    }

    // The processors this HIPRTC's code-object manager knows, from its own ISA list.
    static std::vector<std::string> supported_targets() {
        std::size_t count = 0;
        call<Comgr>(Comgr::get_isa_count, &count);
        std::vector<std::string> targets;
        for (std::size_t i = 0; i < count; ++i) {
            const char* isa = nullptr;
            call<Comgr>(Comgr::get_isa_name, i, &isa);
            // "amdgcn-amd-amdhsa--gfx90a:xnack+" -> "gfx90a"
            std::string name(isa);
            name = base_target(name.substr(name.rfind('-') + 1));
            if (targets.empty() || targets.back() != name) {
                targets.push_back(name);
            }
        }
        return targets;
    }
};

}  // namespace kiln::detail::hip
