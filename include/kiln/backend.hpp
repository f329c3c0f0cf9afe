// Which GPU runtimes this build of kiln carries, and which one is in use.
#pragma once

#include <string_view>
#include <vector>

namespace kiln {

enum class BackendKind { cuda, hip };

[[nodiscard]] std::string_view to_string(BackendKind kind) noexcept;

// The backends compiled into this library, in order of preference.
[[nodiscard]] std::vector<BackendKind> compiled_backends();

// The backend kiln uses: KILN_BACKEND if set, else the first compiled backend that sees a
// device, else the first compiled one. Throws NoDevice when no GPU backend was compiled in.
[[nodiscard]] BackendKind active_backend();

}  // namespace kiln
