/// @file
/// Which runtimes this build of kiln carries (the GPU vendors' and the host's), and which one is in
/// use.
#pragma once

#include <string_view>
#include <vector>

namespace kiln {

/// host runs kernels on this machine's CPU threads, compiled by the system C++ compiler.
enum class BackendKind { cuda, hip, host };

/// The backend's name: "cuda", "hip" or "host", as KILN_BACKEND spells it.
[[nodiscard]] std::string_view to_string(BackendKind kind) noexcept;

/// The backends compiled into this library, in order of preference: the GPU backends, then host.
[[nodiscard]] std::vector<BackendKind> compiled_backends();

/// The backend kiln uses: KILN_BACKEND if set, else the first compiled backend that sees a
/// device (host only when no GPU backend sees one), else the first compiled one. Throws NoDevice
/// when no backend was compiled in.
[[nodiscard]] BackendKind active_backend();

}  // namespace kiln
