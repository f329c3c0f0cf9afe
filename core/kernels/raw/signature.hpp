// The parameter types of an `extern "C" __global__` kernel, read from its source, so that a
// RawKernel can reject a mismatching argument instead of passing garbage.
#pragma once

#include <kiln/dtype.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::detail {

struct KernelParameter {
    std::string text;              // as written, for messages
    std::string name;              // empty when unnamed
    bool pointer = false;          // any pointer: arrays and raw pointers go there
    std::optional<DType> scalar;   // a scalar of a type kiln knows
    std::optional<DType> pointee;  // the element type of a pointer, when kiln knows it
};

// The parameters of kernel `name` in `source`, or nothing when its signature cannot be read
// (a template, a macro, a name defined twice): then arguments go unchecked, as in CuPy.
[[nodiscard]] std::optional<std::vector<KernelParameter>> kernel_signature(std::string_view source,
                                                                           std::string_view name);

// The parameters of a parenthesised list that starts `list` ("(const float* x, int n) {..."),
// or nothing when the list does not close.
[[nodiscard]] std::optional<std::vector<KernelParameter>> parameter_list(std::string_view list);

}  // namespace kiln::detail
