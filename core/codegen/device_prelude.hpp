// kiln's device headers: small headers handed to NVRTC, HIPRTC and the host compiler by name with
// every program, so generated kernels and user code alike can `#include <kiln/complex.h>` without
// vendor headers, which a machine may lack (backends/toolkit_headers.hpp finds them where
// present). They define CuPy's dtype spellings (`complex<float>`, `float16`), numeric limits, the
// warp size and shuffle and atomic shims that read the same on both vendors. The host backend
// gets kiln/host.h besides, its dialect's prelude.
#pragma once

#include "../backend.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace kiln::detail {

// The headers for a compile for `target` ("sm_90", "gfx90a:xnack-") on `backend`. Only kiln/warp.h
// differs between targets: it spells the target's warp size.
[[nodiscard]] std::vector<DeviceHeader> device_headers(BackendKind backend,
                                                       std::string_view target);

// What stands for device_headers(backend, target) in compile keys: each header's name and the
// SHA-256 of its file, computed when libkiln was built, and the warp size written into
// kiln/warp.h. An edited header changes it, and no text is hashed at run time.
[[nodiscard]] std::string device_headers_fingerprint(BackendKind backend, std::string_view target);

// The text every generated kernel's source starts with: the include of kiln/device.h.
[[nodiscard]] std::string_view device_prelude() noexcept;

}  // namespace kiln::detail
