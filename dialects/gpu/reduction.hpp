// The gpu dialect's part of ReductionKernel.
#pragma once

#include "../../core/kernels/reduction/reduction_dialect.hpp"

namespace kiln::detail::gpu_dialect {

// The threads per output and their order, the split into chunks over blocks, and the finishing
// pass: enough blocks for `device`'s resident waves.
[[nodiscard]] ReductionLaunchPlan plan_reduction_launch(const ReductionShape& shape,
                                                        const ReductionDevice& device);

extern const ReductionDialect reduction_part;

}  // namespace kiln::detail::gpu_dialect
