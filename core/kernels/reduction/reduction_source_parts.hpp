// The pieces ReductionKernel's generated kernels are made of, shared by every dialect's
// (dialects/<name>/reduction_source.cpp).
#pragma once

#include "reduction_definition.hpp"
#include "reduction_source.hpp"

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln::detail {

// Concatenates pieces of generated code with one allocation.
[[nodiscard]] std::string cat(std::initializer_list<std::string_view> pieces);

// "int" or "long long".
[[nodiscard]] std::string index_type(const ReductionVariant& v);

// Adds `offset += position * strides[d]` for every axis of `shape`, unravelling `position`
// (C order) into the axes of the rank-`ndim` shape. One statement block.
[[nodiscard]] std::string unravel(
    const std::string& index, const std::string& position, const std::string& shape,
    std::size_t ndim, const std::vector<std::pair<std::string, std::string>>& offset_strides);

// A parameter's C type in this variant: its placeholder, or its fixed dtype's.
[[nodiscard]] std::string type_of(const ParamSpec& p, DType dtype);

// Folds `_v` into the running `_acc`, and declares `_acc` (and `_have` without an identity).
[[nodiscard]] std::string accumulate(const ReductionDefinition& k);
[[nodiscard]] std::string start_accumulator(const ReductionDefinition& k);

// Binds the outputs at output position `_o` and runs post_map_expr on `a` (`_acc`).
[[nodiscard]] std::string post_map(const ReductionDefinition& k, const ReductionVariant& v);

// The loop over one output's elements `_J` in [first, end) owned by this lane, `lanes` apart
// (1 on the host): four elements a pass, mapped before they are combined, so that four loads are
// in flight per thread.
[[nodiscard]] std::string element_loop(const ReductionDefinition& k, const std::string& index,
                                       const std::string& first, const std::string& end,
                                       const std::string& lanes);

// The reduce kernel's parameters, and the code that maps element _J of output _o: the inputs'
// offsets of the output (`output_offsets`, from _o) and the `_map` lambda of _J.
struct MapCode {
    std::string params;
    std::string output_offsets;
    std::string map;
};
[[nodiscard]] MapCode map_code(const ReductionDefinition& k, const ReductionVariant& v);

// The finishing kernel's parameters, its view `_parts` of the partials, and the `_map` of partial
// _J of output _o.
struct FinishCode {
    std::string params;
    std::string partials;
    std::string map;
};
[[nodiscard]] FinishCode finish_code(const ReductionDefinition& k, const ReductionVariant& v);

// `_kiln_dims<n>`.
[[nodiscard]] std::string dims(std::size_t n);

// The outputs' parameters: each one's pointer and strides.
[[nodiscard]] std::string output_params(const ReductionDefinition& k, const ReductionVariant& v);

// The scalar inputs, by value: the finishing pass's post_map_expr may use them too.
[[nodiscard]] std::string scalar_params(const ReductionDefinition& k, const ReductionVariant& v);

}  // namespace kiln::detail
