// What a kernel dialect supplies for ElementwiseKernel: the loops around the operation, the
// kernel's entry, and the launch of a call.
#pragma once

#include "elementwise_arguments.hpp"
#include "elementwise_launch.hpp"
#include "elementwise_loops.hpp"
#include "elementwise_variant.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::detail {

// The parts of a variant's kernel the family writes: its parameter list, the prologue before the
// loops and what follows them, through the body's closing brace.
struct ElementwiseKernelParts {
    std::string_view entry_name;
    std::string params;
    std::string prologue;
    std::string epilogue;
    std::vector<LoopOperand> operands;
    LoopShape shape;  // the dialect sets elements_per_thread and tiled
};

struct ElementwiseDialect {
    // The kernel `parts.entry_name` of `variant`: its entry, the parts and the loops.
    std::string (*kernel)(const ElementwiseDefinition& definition,
                          const ElementwiseVariant& variant, ElementwiseKernelParts parts);
    // The launch of a call with `values` (size > 0) on a device of `multiprocessors` SMs, CUs or
    // CPU threads.
    ElementwiseLaunch (*launch)(const ElementwiseDefinition& definition,
                                const ElementwiseVariant& variant, const CallValues& values,
                                std::int64_t multiprocessors);
};

}  // namespace kiln::detail
