// One ReductionKernel call resolved without touching device memory: dtypes bound, the inputs
// broadcast, the output axes and the reduced axes each collapsed (output axes first), and the
// variant chosen. Missing outputs are described as the C-contiguous arrays allocate_outputs()
// makes.
#pragma once

#include "reduction_arguments.hpp"
#include "reduction_definition.hpp"
#include "reduction_launch_plan.hpp"
#include "reduction_source.hpp"

#include <kiln/argument.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/reduction_kernel.hpp>
#include <kiln/stream_view.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kiln::detail {

struct ReductionCall {
    ReductionVariant variant;
    std::vector<ndarray> inputs;  // per in param; empty for scalars
    std::vector<std::array<std::byte, 16>> scalars;
    std::vector<Strides> in_out_strides;  // per in param over the output axes
    std::vector<Strides> in_reduce_strides;
    std::vector<ndarray> outputs;  // the given outputs; none until allocated when none were given
    Shape result_shape;            // the outputs' shape (keepdims included)
    std::vector<Strides> out_strides;
    Shape out_shape;  // collapsed, at least one axis
    Shape reduce_shape;
    std::int64_t m = 0;  // output elements
    std::int64_t n = 0;  // elements reduced into each
    // The first array input's innermost reduced step is one item.
    bool reduction_contiguous = false;
};

// Throws TypeError, ShapeError, IndexError or Error naming the kernel and the argument.
// `device`: where the call runs; none when only its source is wanted.
[[nodiscard]] ReductionCall prepare_reduction(const ReductionDefinition& k,
                                              std::span<const Argument> args,
                                              const ReductionCallOptions& options,
                                              std::optional<int> device);

// Allocates on `stream` the outputs the caller did not give, as prepare_reduction laid them out.
void allocate_reduction_outputs(ReductionCall& call, StreamView stream);

// The run-time values of both launches.
[[nodiscard]] ReductionValues reduction_values(const ReductionCall& call,
                                               const ReductionLaunchPlan& plan, void* partial);

// How `call`'s inputs allow a kernel to walk them: `rows` when every array input steps one item
// along the one reduced axis, else `columns` when every one steps one item along the innermost
// output axis, else `strided`.
[[nodiscard]] ReductionLayout input_layout(const ReductionCall& call);

}  // namespace kiln::detail
