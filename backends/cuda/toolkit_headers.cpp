#include "toolkit_headers.hpp"

#include "../toolkit_headers.hpp"

namespace kiln::detail::cuda {

namespace {

// The toolkit's per-platform directory, targets/<platform>/include.
#if defined(__aarch64__)
constexpr const char* targets_include = "targets/sbsa-linux/include";
#else
constexpr const char* targets_include = "targets/x86_64-linux/include";
#endif

ToolkitLayout layout() {
    return {
        .override_variable = "KILN_CUDA_INCLUDE_PATH",
        .marker = "cuda_fp16.h",
        // lib64/ of a toolkit; targets/<platform>/lib/; Debian's /usr/lib/<multiarch>/.
        .beside_library = {"../include", "../../include", std::string("../") + targets_include},
        .root_variables = {"CUDA_PATH", "CUDA_HOME"},
        .under_root = {"include", targets_include},
        .standard = {"/usr/local/cuda/include", "/usr/include"},
        .nested = {"cccl"},
    };
}

}  // namespace

const ToolkitHeaders& toolkit_headers(const std::filesystem::path& nvrtc_library) {
    static const ToolkitHeaders headers = find_toolkit_headers(layout(), nvrtc_library);
    return headers;
}

}  // namespace kiln::detail::cuda
