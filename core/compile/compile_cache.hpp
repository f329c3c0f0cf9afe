// Source -> code object through kiln's two cache levels: this process's memory, then the disk
// (unless KILN_CACHE_IN_MEMORY is set), then the compiler. Every outcome is counted
// (kiln::compile_cache_statistics).
#pragma once

#include "../backend.hpp"
#include "../codegen/device_prelude.hpp"

#include <span>
#include <string>
#include <vector>

namespace kiln::detail {

// As Backend::compile, with an empty target meaning the current device's. With
// KILN_COMPILE_DEBUG set (not empty, not "0"), line info and device debug information are added.
[[nodiscard]] CompiledBinary compile_cached(const CompileRequest& request);

// The key a compile of `request` (its target resolved, its options final) is cached under: the
// hash of everything that shapes the binary, including the device headers the program sees and
// the options that find the toolkit's headers (Backend::toolkit_headers).
[[nodiscard]] std::string compile_key(const CompileRequest& request, BackendKind backend,
                                      const std::string& compiler_version,
                                      std::span<const DeviceHeader> headers,
                                      std::span<const std::string> toolkit_options);

}  // namespace kiln::detail
