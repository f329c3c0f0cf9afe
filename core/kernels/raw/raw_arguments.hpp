// How a RawKernel argument binds to the parameter its kernel declares (see signature.hpp): as it
// is, converted (an integer scalar for an integer parameter of another width or signedness, when
// its value fits, as ElementwiseKernel scalars convert), or not at all (TypeError). Floating-point
// and other scalars must match exactly: a double passed for a float stays an error.
#pragma once

#include "signature.hpp"

#include <kiln/raw_kernel.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <string>

namespace kiln::detail {

// The bytes a converted scalar is passed as (the parameter's size at most).
using ConvertedScalar = std::array<std::byte, 8>;

// Binds argument `index` (from 0) of RawKernel `kernel` to parameter `p`. Returns the bytes to
// pass in place of the argument's own when it converts, nothing when it passes as it is. Throws
// TypeError naming the kernel, the argument (position and name), its value when it is a scalar,
// and the parameter. Runs on every launch: messages are built only on failure.
[[nodiscard]] std::optional<ConvertedScalar> bind_raw_argument(const std::string& kernel,
                                                               std::size_t index,
                                                               const KernelArg& arg,
                                                               const KernelParameter& p);

}  // namespace kiln::detail
