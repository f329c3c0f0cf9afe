// A traced expression as the text of one ElementwiseKernel or ReductionKernel: each node a
// statement over the ufunc table's own operation text (so fused and eager results agree), the
// arguments the expression reads as parameters, its results as outputs. With a reduction, what
// precedes it becomes the map (a device function in the preamble) and what follows the post-map.
#pragma once

#include "graph.hpp"

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

}  // namespace kiln::detail
