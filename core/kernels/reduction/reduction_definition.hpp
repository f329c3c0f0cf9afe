// A ReductionKernel's definition, parsed and checked where the kernel is built: its parameter
// lists, expressions and reduce type(s).
#pragma once

#include "../param_spec.hpp"

#include <kiln/dtype.hpp>
#include <kiln/reduction_kernel.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::detail {

// What a ReductionKernel is, as written.
struct ReductionDefinition {
    std::string name;
    // What messages call the kernel: "ReductionKernel 'name'", or a routine's name ("sum").
    std::string label;
    std::string map_expr;
    std::string reduce_expr;
    std::string post_map_expr;
    std::string identity;  // empty: none
    std::vector<ParamSpec> in;
    std::vector<ParamSpec> out;
    // `reduce_type` split at commas and trimmed; one entry per output when it was empty.
    std::vector<std::string> reduce_types;
    std::string preamble;
    bool reduce_dims = true;           // collapse dimensions before generating the kernel
    std::vector<std::string> options;  // compiler options
};

// The dtype a reduce_type entry spells: a dtype name ("float64") or its C type ("double").
[[nodiscard]] std::optional<DType> dtype_from_spelling(std::string_view type);

// "kiln: <label>: ", which opens the kernel's messages.
[[nodiscard]] std::string reduction_prefix(const ReductionDefinition& k);

// Parses and checks a definition. Throws Error or TypeError naming the kernel for an invalid
// name, a malformed or raw parameter, no outputs, or a reduce_type entry that is neither a dtype
// name, the C type of one, nor a placeholder the parameters use (see ReductionOptions).
[[nodiscard]] ReductionDefinition define_reduction(const std::string& in_params,
                                                   const std::string& out_params,
                                                   std::string map_expr, std::string reduce_expr,
                                                   std::string post_map_expr, std::string identity,
                                                   std::string name, const std::string& reduce_type,
                                                   std::string preamble);

// A ReductionKernel of kiln's own routines: its messages name `label` ("sum"), not the generated
// kernel.
[[nodiscard]] ReductionKernel routine_reduction_kernel(
    const std::string& in_params, const std::string& out_params, std::string map_expr,
    std::string reduce_expr, std::string post_map_expr, std::string identity, std::string name,
    const ReductionOptions& options, std::string label);

}  // namespace kiln::detail
