// The host dialect's prelude on disk: kiln's device headers and kiln/prelude.h (kiln/host.h, then
// kiln/device.h), with kiln/cuda_prelude.h for users' CUDA-dialect sources (kiln/host_cuda.h
// between the two), each precompiled by GCC, kept once per compiler, CPU and header set as a tree
// entry of the compile cache (core/compile/cache_tree.hpp): trees/<SHA-256 of all that>/, counted
// toward KILN_CACHE_SIZE_LIMIT and evicted like any entry, but never while a compile uses it.
// Every kernel compile then includes the prelude without parsing it again: the C++ library
// headers it pulls in were most of a small kernel's compile time. Each process checks a tree
// against its manifest (prelude_manifest.hpp) before the first use.
#pragma once

#include "../../core/backend.hpp"
#include "../../core/compile/cache_tree.hpp"
#include "compiler.hpp"

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kiln::detail::host {

// The header every kernel compile includes first (-include), from the include directory.
inline constexpr const char* prelude_header = "kiln/prelude.h";
// The same for a user's source in the CUDA dialect.
inline constexpr const char* cuda_prelude_header = "kiln/cuda_prelude.h";

// Writes `headers` and the preludes into the include directory `include`.
void write_prelude(const std::filesystem::path& include, std::span<const DeviceHeader> headers);

// The include directory holding `headers` and the preludes (with their precompiled forms when the
// compiler made one), built when it is missing, and held in use while the lease lives; nothing
// when there is no disk cache to keep it in or it cannot be written there. `options` are the
// compile's base options.
[[nodiscard]] std::optional<TreeLease> prelude_directory(const HostCompiler& compiler,
                                                         const std::vector<std::string>& options,
                                                         std::span<const DeviceHeader> headers);

}  // namespace kiln::detail::host
