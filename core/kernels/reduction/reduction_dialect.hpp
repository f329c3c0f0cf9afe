// What a kernel dialect supplies for ReductionKernel: the support its kernels need, the reduce and
// finish kernels, the input layouts it writes kernels for, and the launch plan.
#pragma once

#include "reduction_call.hpp"
#include "reduction_definition.hpp"
#include "reduction_launch_plan.hpp"
#include "reduction_source.hpp"

#include <string>

namespace kiln::detail {

struct ReductionDialect {
    // Definitions after the shared ones (_type_reduce, _kiln_reduce) that both kernels use.
    std::string (*support)(const ReductionDefinition& k);
    // `<name>`: maps and reduces a chunk of each output's reduction, straight into the outputs or
    // into partials when the chunks are split over blocks.
    std::string (*reduce_kernel)(const ReductionDefinition& k, const ReductionVariant& v);
    // `<name>_finish`: reduces the partials.
    std::string (*finish_kernel)(const ReductionDefinition& k, const ReductionVariant& v);
    // The layout the variant of `call` is written for (its variant has every other field set).
    ReductionLayout (*layout)(const ReductionCall& call);
    ReductionLaunchPlan (*plan)(const ReductionShape& shape, const ReductionDevice& device);
};

}  // namespace kiln::detail
