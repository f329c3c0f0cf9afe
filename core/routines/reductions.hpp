// The reductions' kernels by name, for tests that compile every one without a device.
#pragma once

#include <kiln/dtype.hpp>
#include <kiln/reduction_kernel.hpp>

#include <string_view>
#include <vector>

namespace kiln::detail {

// Every reduction's name ("sum", "max", ...).
[[nodiscard]] std::vector<std::string_view> reduction_names();

struct ReductionRoutine;

// The routine of reduction `name` ("sum", "max", ...), or null when there is none.
[[nodiscard]] const ReductionRoutine* find_reduction(std::string_view name) noexcept;

// The kernel of reduction `name` over arrays of `input`, with its default dtypes. Throws Error for
// an unknown name and TypeError for a dtype the reduction does not take.
[[nodiscard]] const ReductionKernel& reduction_kernel(std::string_view name, DType input);

}  // namespace kiln::detail
