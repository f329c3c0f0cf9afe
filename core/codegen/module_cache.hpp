// Kernels kiln generates for itself (copies, casts, fills, ranges), compiled once per device and
// process and kept loaded. Modules are never unloaded: no vendor call runs at exit.
#pragma once

#include "../backend.hpp"

#include <string>
#include <vector>

namespace kiln::detail {

// The function `name` of `source`, compiled for and loaded on the current device.
[[nodiscard]] NativeFunction cached_function(const std::string& source, const std::string& name,
                                             const std::vector<std::string>& options = {});

}  // namespace kiln::detail
