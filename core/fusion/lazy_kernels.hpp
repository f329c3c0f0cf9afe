// The kernels of lazy fusion's graphs, kept per structure (the nodes' operations, dtypes and
// argument positions; scalars are kernel parameters), so that an expression repeated with other
// arrays or other scalar values finds its kernel without generating source again.
#pragma once

#include "fused_function.hpp"
#include "graph.hpp"

#include <kiln/argument.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/reduction_kernel.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace kiln::detail {

// A graph's kernel and the positions of the graph's arguments it takes, in its order.
struct LazyKernel {
    FusedKernelObject kernel;
    std::vector<std::int32_t> arguments;
};

// The kernel of node `output` of `graph`, made on the first call for its structure. Never
// destroyed: kernels may be called while the process exits.
[[nodiscard]] const LazyKernel& lazy_kernel(const Graph& graph, std::int32_t output);

// `kernel` called with `taken` (its arguments, in its order) on `stream`; a ReductionKernel with
// `reduction`'s axis and keepdims.
[[nodiscard]] ndarray run_lazy(const LazyKernel& kernel, std::span<const Argument> taken,
                               StreamView stream, const ReductionCallOptions& reduction);

// Node `output` of `graph` computed from `arguments` on `stream`: one ElementwiseKernel, or, when
// the graph holds a reduction, one ReductionKernel called with `reduction`'s axis and keepdims.
[[nodiscard]] ndarray run_lazy(const Graph& graph, std::int32_t output,
                               std::span<const Argument> arguments, StreamView stream,
                               const ReductionCallOptions& reduction);

}  // namespace kiln::detail
