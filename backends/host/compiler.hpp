// The host backend's compiler: the system C++ compiler builds each program into a shared object.
// It is KILN_HOST_CXX when set, else the compiler CMake built kiln with, else c++ on PATH.
#pragma once

#include "../../core/backend.hpp"

#include <string>
#include <vector>

namespace kiln::detail::host {

struct HostCompiler {
    std::string path;     // "" when none was found
    std::string reason;   // why none was found, naming what was looked for; "" when found
    std::string version;  // the first line of its --version
};

// Found, and its version asked, once per process.
[[nodiscard]] const HostCompiler& host_compiler();

// The compiler's identity for cache keys: its version, the CPU it builds for, and the options
// every compile starts with.
[[nodiscard]] const std::string& host_compiler_identity();

// The request's options as the host compiler takes them: include paths, macros, debug and
// optimisation flags, and a newer C++ standard pass; GPU compilers' options are dropped.
[[nodiscard]] std::vector<std::string> host_options(const std::vector<std::string>& options);

// Builds `request` into a shared object: its image is the file's bytes. CompileError with the
// compiler's log and the numbered source when the compiler fails.
[[nodiscard]] CompiledBinary compile_shared_object(const CompileRequest& request);

}  // namespace kiln::detail::host
