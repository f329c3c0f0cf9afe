// Source -> code object through kiln's two cache levels: this process's memory, then the disk
// (unless KILN_CACHE_IN_MEMORY is set), then the compiler. Every outcome is counted
// (kiln::compile_cache_statistics).
#pragma once

#include "../backend.hpp"

namespace kiln::detail {

// As Backend::compile, with an empty target meaning the current device's.
[[nodiscard]] CompiledBinary compile_cached(const CompileRequest& request);

}  // namespace kiln::detail
