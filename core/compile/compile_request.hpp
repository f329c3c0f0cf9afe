// The front of the compile pipeline (program -> request -> compiled -> loaded, after Jitify2):
// what a caller asks to compile, and the request that program becomes for the active backend.
#pragma once

#include "../backend.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace kiln::detail {

// What a caller asks to compile.
struct Program {
    std::string_view source;
    std::string_view kernel;  // for messages and the program's file name
    std::vector<std::string> options;
    // Template instantiations and overloads to look up by expression ("f<float>").
    std::vector<std::string> name_expressions;
    // A user's source in the CUDA dialect (RawKernel, RawModule, JIT kernels) rather than one
    // kiln generated in the backend's dialect: the host backend builds it with kiln/host_cuda.h.
    bool cuda_dialect = false;
};

// `program` made ready for the active backend's compiler, for `target` (empty: the current
// device's). Its options are the program's, then the debug options when KILN_COMPILE_DEBUG is
// set (not empty, not "0"; read at every call, so a program may turn it on and off), then the
// toolkit's include directories. kiln's device headers for the target come attached, and the
// request's key is computed. The headers and their digest are built once per warp size.
[[nodiscard]] CompileRequest resolve(const Program& program, std::string_view target = {});

// Whether KILN_COMPILE_DEBUG asks for builds for a debugger (set, and not "0").
[[nodiscard]] bool compile_debug_requested();

}  // namespace kiln::detail
