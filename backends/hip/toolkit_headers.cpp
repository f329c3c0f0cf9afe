#include "toolkit_headers.hpp"

#include "../toolkit_headers.hpp"

#include <array>
#include <string>

namespace kiln::detail::hip {

namespace {

ToolkitLayout layout() {
    return {
        .override_variable = "KILN_HIP_INCLUDE_PATH",
        .marker = "hip/hip_runtime.h",
        // ROCm's lib/; Debian's /usr/lib/<multiarch>/.
        .beside_library = {"../include", "../../include"},
        .root_variables = {"ROCM_PATH", "HIP_PATH"},
        .under_root = {"include"},
        .standard = {"/opt/rocm/include", "/usr/include"},
        .nested = {},
    };
}

// HIPRTC compiles every program after a built-in, preprocessed copy of hip/hip_runtime.h and
// hip/hip_fp16.h in which these headers' include guards are lost, so a program that includes
// hip/hip_fp16.h or hip/hip_complex.h from disk defines everything twice. Defining the guards
// makes such an include add only what the copy lacks, as it does under hipcc. (hip_common.h and
// hip_version.h hold only macros, which the copy lacks: they stay unguarded.)
constexpr std::array<const char*, 15> builtin_header_guards{
    "HIP_INCLUDE_HIP_DRIVER_TYPES_H",
    "HIP_INCLUDE_HIP_HIP_FP16_H",
    "HIP_INCLUDE_HIP_HIP_TEXTURE_TYPES_H",
    "HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H",
    "HIP_INCLUDE_HIP_SURFACE_TYPES_H",
    "HIP_INCLUDE_HIP_TEXTURE_TYPES_H",
    "HIP_INCLUDE_HIP_AMD_DETAIL_DEVICE_FUNCTIONS_H",
    "HIP_INCLUDE_HIP_AMD_DETAIL_DEVICE_LIBRARY_DECLS_H",
    "HIP_INCLUDE_HIP_AMD_DETAIL_HIP_FP16_H",
    "HIP_INCLUDE_HIP_AMD_DETAIL_HIP_LDG_H",
    "HIP_INCLUDE_HIP_AMD_DETAIL_HIP_RUNTIME_H",
    "HIP_INCLUDE_HIP_AMD_DETAIL_HIP_VECTOR_TYPES_H",
    "HIP_INCLUDE_HIP_AMD_DETAIL_HOST_DEFINES_H",
    "HIP_INCLUDE_HIP_AMD_DETAIL_LLVM_INTRINSICS_H",
    "HIP_INCLUDE_HIP_AMD_DETAIL_SURFACE_FUNCTIONS_H",
};

}  // namespace

const ToolkitHeaders& toolkit_headers(const std::filesystem::path& hiprtc_library) {
    static const ToolkitHeaders headers = [&hiprtc_library] {
        ToolkitHeaders found = find_toolkit_headers(layout(), hiprtc_library);
        for (const char* guard : builtin_header_guards) {
            found.options.push_back(std::string("-D") + guard + "=");
        }
        return found;
    }();
    return headers;
}

}  // namespace kiln::detail::hip
