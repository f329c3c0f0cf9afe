// Binds the type placeholders of a kernel's parameters to dtypes for one call, as CuPy does:
// output arrays first, then input arrays, in order; a scalar binds a placeholder only when no
// array does. A parameter of fixed dtype takes an array of exactly that dtype, or any scalar
// (converted with range checks when the call packs its arguments).
#pragma once

#include "param_spec.hpp"

#include <kiln/dtype.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::detail {

// What the call passed for one parameter: an array or a scalar of `dtype`, or nothing (an output
// kiln allocates). `dtype` is unused for absent.
struct ArgumentType {
    enum Kind : std::uint8_t { array, scalar, absent } kind = absent;
    DType dtype = DType::bool_;
};

// Placeholder -> DType for every placeholder `in` and `out` use. `in_args` aligns with `in`;
// `out_args` aligns with the start of `out` and may be shorter (missing outputs are absent).
// Inputs must be given and outputs must be arrays when given. Throws TypeError for a wrong
// argument count, an array whose dtype conflicts with its placeholder's binding or with a fixed
// dtype, and a placeholder that no argument binds; messages name the kernel, the parameters and
// the dtypes.
[[nodiscard]] std::map<std::string, DType, std::less<>> bind_types(
    std::string_view kernel, const std::vector<ParamSpec>& in, const std::vector<ParamSpec>& out,
    std::span<const ArgumentType> in_args, std::span<const ArgumentType> out_args);

// The dtype of parameter `p` under a binding: its fixed dtype, or its placeholder's. Throws
// TypeError when the placeholder is not in the binding.
[[nodiscard]] DType resolved_dtype(const ParamSpec& p,
                                   const std::map<std::string, DType, std::less<>>& binding);

}  // namespace kiln::detail
