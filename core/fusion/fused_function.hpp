// Tracing a fused function for one key, without building its kernel: for tests that inspect or
// compile the definition with no device.
#pragma once

#include "fused_source.hpp"

#include <kiln/elementwise_kernel.hpp>
#include <kiln/fuse.hpp>
#include <kiln/reduction_kernel.hpp>

#include <string>
#include <variant>
#include <vector>

namespace kiln::detail {

// The kernel a definition makes: an ElementwiseKernel, or a ReductionKernel.
using FusedKernelObject = std::variant<ElementwiseKernel, ReductionKernel>;
// `options`: compiler options.
[[nodiscard]] FusedKernelObject make_fused_kernel(const FusedDefinition& fused,
                                                  const std::vector<std::string>& options = {});

// Runs `trace` on one traced value per argument of `key` and defines the kernel of its results.
[[nodiscard]] FusedDefinition trace_fused(const std::string& name, const FusionKey& key,
                                          const FusionTrace& trace);

}  // namespace kiln::detail
