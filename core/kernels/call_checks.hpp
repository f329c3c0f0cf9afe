// The checks every generated-kernel class makes of a call's arguments, worded once. Each message
// opens with the kernel's prefix ("kiln: ReductionKernel 'sum': ") and names the argument and what
// was expected.
#pragma once

#include "param_spec.hpp"
#include "type_binding.hpp"

#include <kiln/argument.hpp>
#include <kiln/ndarray.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kiln::detail {

// The outputs passed as arguments after the inputs: none, or one array per output. Throws
// TypeError for another count or a scalar output.
[[nodiscard]] std::vector<ndarray> output_arguments(const std::string& prefix,
                                                    const std::vector<ParamSpec>& in,
                                                    const std::vector<ParamSpec>& out,
                                                    std::span<const Argument> args);

// Binds the placeholders from the inputs (the first in.size() arguments) and the given outputs.
[[nodiscard]] std::map<std::string, DType, std::less<>> bind_arguments(
    const std::string& kernel, const std::vector<ParamSpec>& in, const std::vector<ParamSpec>& out,
    std::span<const Argument> args, std::span<const ndarray> outputs);

// An array argument's dtype and device. `role` is "input" or "output"; `device` is the device the
// kernel runs on (none when only the source is wanted). An array on another device is CuPy's
// case: used through peer access where the devices allow it, an Error where they do not.
void check_array(const std::string& prefix, const char* role, const std::string& name,
                 const ndarray& array, DType dtype, std::optional<int> device);
void check_dtype(const std::string& prefix, const char* role, const std::string& name,
                 const ndarray& array, DType dtype);
void check_device(const std::string& prefix, const std::string& name, const ndarray& array,
                  std::optional<int> device);

// A given output's shape against the result's.
void check_output_shape(const std::string& prefix, const std::string& name, const ndarray& array,
                        const Shape& result);

// The shapes broadcast together; ShapeError listing them otherwise. `what` names the arguments.
[[nodiscard]] Shape broadcast_arguments(const std::string& prefix, const std::vector<Shape>& shapes,
                                        const char* what);

// Whether a kernel may index with 32 bits: `elements` leaves room for a grid-stride step past the
// end without overflow (far below 2^30 for any grid), and every byte offset (`extent`) fits.
[[nodiscard]] bool fits_32_bit_indices(std::int64_t elements, std::int64_t extent) noexcept;

}  // namespace kiln::detail
