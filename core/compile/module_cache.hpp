// Modules compiled from source and loaded on a device, kept for the life of the process (as CuPy
// keeps them): kiln's own kernels, generated kernels and RawKernel/RawModule sources. A second
// kernel object with the same source loads nothing. Modules are never unloaded: no vendor call
// runs at exit.
#pragma once

#include "../backend.hpp"

#include <string>
#include <utility>
#include <vector>

namespace kiln::detail {

struct LoadedModule {
    NativeModule module = nullptr;
    // name expression -> lowered name, when the request registered any
    std::vector<std::pair<std::string, std::string>> lowered_names;
};

// `request` (an empty target: the current device's) compiled through the compile cache and
// loaded on the current device, once per device and process.
[[nodiscard]] LoadedModule cached_module(const CompileRequest& request);

// The function `name` of `source`, compiled for and loaded on the current device.
[[nodiscard]] NativeFunction cached_function(const std::string& source, const std::string& name,
                                             const std::vector<std::string>& options = {});

}  // namespace kiln::detail
