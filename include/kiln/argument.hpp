/// @file
/// An argument of a generated kernel (ElementwiseKernel, ReductionKernel): an array or a host
/// scalar.
#pragma once

#include <kiln/ndarray.hpp>
#include <kiln/scalar.hpp>

#include <variant>

namespace kiln {

/// An argument of a ufunc or a kernel call: an array, or a C++ number (a weak scalar under NEP 50).
using Argument = std::variant<ndarray, Scalar>;

}  // namespace kiln
