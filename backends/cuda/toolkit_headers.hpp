// Where the CUDA toolkit's headers are, for NVRTC programs that include them.
#pragma once

#include "../../core/backend.hpp"

#include <filesystem>

namespace kiln::detail::cuda {

// Found on the first call: beside `nvrtc_library`, the NVRTC file kiln loaded, then under
// CUDA_PATH and CUDA_HOME, then in /usr/local/cuda and /usr/include (KILN_CUDA_INCLUDE_PATH
// replaces the search). CUDA 13 keeps CUB, Thrust and libcu++ in include/cccl, which
// cooperative_groups.h needs too: it is passed after the include directory.
[[nodiscard]] const ToolkitHeaders& toolkit_headers(const std::filesystem::path& nvrtc_library);

}  // namespace kiln::detail::cuda
