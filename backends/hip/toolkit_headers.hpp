// Where HIP's headers are, for HIPRTC programs that include them.
#pragma once

#include "../../core/backend.hpp"

#include <filesystem>

namespace kiln::detail::hip {

// Found on the first call: beside `hiprtc_library`, the HIPRTC file kiln loaded, then under
// ROCM_PATH and HIP_PATH, then in /opt/rocm/include and /usr/include (KILN_HIP_INCLUDE_PATH
// replaces the search).
[[nodiscard]] const ToolkitHeaders& toolkit_headers(const std::filesystem::path& hiprtc_library);

}  // namespace kiln::detail::hip
