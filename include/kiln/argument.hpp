// An argument of a generated kernel (ElementwiseKernel, ReductionKernel): an array or a host
// scalar.
#pragma once

#include <kiln/ndarray.hpp>
#include <kiln/scalar.hpp>

#include <variant>

namespace kiln {

using Argument = std::variant<ndarray, Scalar>;

}  // namespace kiln
