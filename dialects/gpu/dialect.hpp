// The GPU dialect: CUDA and HIP kernels, one source for both (NVRTC and HIPRTC).
// docs/design.md, "Kernel dialects", lists the files every dialect has.
#pragma once

#include "../../core/codegen/kernel_dialect.hpp"

namespace kiln::detail::gpu_dialect {

// The table the backend traits name.
[[nodiscard]] const KernelDialect& dialect();

}  // namespace kiln::detail::gpu_dialect
