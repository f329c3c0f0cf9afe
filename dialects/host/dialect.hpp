// The host dialect: kernels as C++ functions of a launch's block range, which the host backend's
// compiler builds into a shared object and its thread pool runs (kiln/host.h).
// docs/design.md, "Kernel dialects", lists the files every dialect has.
#pragma once

#include "../../core/codegen/kernel_dialect.hpp"

namespace kiln::detail::host_dialect {

// Blocks per CPU thread in a wave: threads that finish early take more.
inline constexpr int resident_blocks = 8;

// The table the backend traits name.
[[nodiscard]] const KernelDialect& dialect();

}  // namespace kiln::detail::host_dialect
