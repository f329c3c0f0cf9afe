// The kernels of lazy fusion's graphs, kept per structure (the nodes' operations, dtypes and
// argument positions; scalars are kernel parameters), so that an expression repeated with other
// arrays or other scalar values finds its kernel without generating source again.
#pragma once

#include "graph.hpp"

#include <kiln/argument.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/reduction_kernel.hpp>

#include <span>

namespace kiln::detail {

// Node `output` of `graph` computed from `arguments` on `stream`: one ElementwiseKernel, or, when
// the graph holds a reduction, one ReductionKernel called with `reduction`'s axis and keepdims.
[[nodiscard]] ndarray run_lazy(const Graph& graph, std::int32_t output,
                               std::span<const Argument> arguments, StreamView stream,
                               const ReductionCallOptions& reduction);

}  // namespace kiln::detail
