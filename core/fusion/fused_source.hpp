// A traced expression as the text of one ElementwiseKernel or ReductionKernel: each node a
// statement over the ufunc table's own operation text (so fused and eager results agree), the
// arguments the expression reads as parameters, its results as outputs. With a reduction, what
// precedes it becomes the map (a device function in the preamble) and what follows the post-map.
#pragma once

#include "graph.hpp"
#include "rolled_chain.hpp"

#include <kiln/reduction_kernel.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kiln::detail {

struct FusedDefinition {
    std::string name;
    bool reduction = false;
    std::string in_params;
    std::string out_params;
    std::string preamble;
    std::string operation;  // elementwise: the statements
    // reduction: ReductionKernel's expressions
    std::string map_expr;
    std::string reduce_expr;
    std::string post_map_expr;
    std::string identity;
    std::string reduce_type;
    Axis axis;
    bool keepdims = false;
    // The positions of the fused call's arguments that the kernel takes, in order: an argument
    // the expression never reads would still broadcast.
    std::vector<std::int32_t> arguments;
    bool scalars_only = false;  // no array argument: one element, returned 0-d
};

// The kernel of `graph` computing `outputs`. Throws TypeError for several outputs of which one
// follows the reduction.
[[nodiscard]] FusedDefinition define_fused(const Graph& graph,
                                           std::span<const std::int32_t> outputs);

// The elementwise kernel of `chain` (rolled_chain.hpp) for up to `max_steps` steps: the prefix,
// then the step `max_steps` times, each one past the second only while the step count, its last
// argument (int64), is larger. Its arguments: the prefix's, every step's scalars (the steps not
// taken read zeros), then the count.
[[nodiscard]] FusedDefinition define_rolled(const Graph& graph, const RolledChain& chain,
                                            std::int32_t max_steps);

}  // namespace kiln::detail
