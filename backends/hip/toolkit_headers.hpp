// Where HIP's headers are, for HIPRTC programs that include them.
#pragma once

#include "../../core/backend.hpp"

namespace kiln::detail::hip {

// Found on the first call: beside the library that holds `hiprtc_function`, then under ROCM_PATH
// and HIP_PATH, then in /opt/rocm/include and /usr/include (KILN_HIP_INCLUDE_PATH replaces the
// search).
[[nodiscard]] const ToolkitHeaders& toolkit_headers(const void* hiprtc_function);

}  // namespace kiln::detail::hip
