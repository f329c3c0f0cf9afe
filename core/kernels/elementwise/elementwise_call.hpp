// One ElementwiseKernel call resolved without touching device memory: the operands' dtypes bound,
// the iteration shape broadcast, the layout collapsed and the variant chosen. Missing outputs are
// described as the C-contiguous arrays allocate_outputs() makes.
#pragma once

#include "elementwise_arguments.hpp"
#include "elementwise_variant.hpp"

#include <kiln/argument.hpp>
#include <kiln/elementwise_kernel.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/stream_view.hpp>

#include <span>
#include <string>
#include <vector>

namespace kiln::detail {

struct ElementwiseCall {
    ElementwiseVariant variant;
    CallValues values;
    Shape shape;                  // the broadcast shape, before collapsing
    std::vector<ndarray> arrays;  // per operand: passed or allocated; a default one for scalars
    bool outputs_given = false;
};

[[nodiscard]] std::string elementwise_prefix(const ElementwiseDefinition& k);

// Throws TypeError, ShapeError or Error naming the kernel and the argument.
// `device`: where the call runs; none when only its source is wanted.
[[nodiscard]] ElementwiseCall prepare_elementwise(const ElementwiseDefinition& k,
                                                  std::span<const Argument> args,
                                                  const CallOptions& options,
                                                  std::optional<int> device);

// Allocates on `stream` the outputs the call did not pass, as prepare_elementwise described them.
void allocate_elementwise_outputs(const ElementwiseDefinition& k, ElementwiseCall& call,
                                  StreamView stream);

}  // namespace kiln::detail
