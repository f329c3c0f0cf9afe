// The host dialect's ElementwiseKernel: one pass over the call's blocks, with no read-ahead (the
// compiler vectorises the rows) and the host's own tiled mode.
#include "elementwise.hpp"

#include "dialect.hpp"

namespace kiln::detail::host_dialect {

namespace {

std::string kernel(const ElementwiseDefinition& /*definition*/,
                   const ElementwiseVariant& /*variant*/, ElementwiseKernelParts parts) {
    parts.shape.elements_per_thread = 1;
    parts.shape.tiled = false;
    return dialect().kernel_opening(parts.entry_name, parts.params, {}) + parts.prologue +
           elementwise_loops(parts.operands, parts.shape) + parts.epilogue +
           dialect().kernel_closing(parts.entry_name);
}

ElementwiseLaunch launch(const ElementwiseDefinition& /*definition*/,
                         const ElementwiseVariant& variant, const CallValues& values,
                         std::int64_t threads) {
    return elementwise_launch(variant, values, threads);
}

}  // namespace

const ElementwiseDialect elementwise_part{&kernel, &launch};

}  // namespace kiln::detail::host_dialect
