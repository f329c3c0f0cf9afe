// Where builds for a debugger keep their files (KILN_COMPILE_DEBUG, or a program's own -g): the
// generated source, the shared object compiled from it, and each loaded copy of it stay in
// $TMPDIR/kiln-host-debug, so that gdb finds a kernel's symbols and source lines at any time.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kiln::detail::host {

// $TMPDIR/kiln-host-debug, made the first time it is asked for.
[[nodiscard]] std::filesystem::path debug_directory();

// Whether the host compiler's `options` ask for debug information.
[[nodiscard]] bool builds_for_debugger(const std::vector<std::string>& options);

}  // namespace kiln::detail::host
