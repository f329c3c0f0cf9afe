// The pipeline's last stage: modules compiled through the compile cache and loaded on a device,
// kept for the life of the process (as CuPy keeps them) by device and compile key. A second
// kernel object with the same program loads nothing. Modules are never unloaded: no vendor call
// runs at exit.
#pragma once

#include "../backend.hpp"
#include "compile_request.hpp"

#include <string>
#include <utility>
#include <vector>

namespace kiln::detail {

struct LoadedModule {
    NativeModule module = nullptr;
    // name expression -> lowered name, when the program registered any
    std::vector<std::pair<std::string, std::string>> lowered_names;
};

// `program` compiled for `device` and loaded on it, once per device and process.
[[nodiscard]] LoadedModule cached_module(int device, const Program& program);

// The function `name` of `program`'s module on `device`. Callers that launch it again keep the
// handle (kernels keep theirs per device and variant) rather than looking it up per launch.
[[nodiscard]] NativeFunction module_function(int device, const Program& program,
                                             const std::string& name);

}  // namespace kiln::detail
