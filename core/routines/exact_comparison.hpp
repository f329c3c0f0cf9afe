// NumPy 2 compares integers exactly, whatever their dtypes: an integer array with a Python
// integer outside the array dtype's range (numpy/_core/src/umath/special_integer_comparisons.cpp:
// int8 < 1000 is true for every element, uint8 == -1 false), and int64 with uint64, which
// promote to float64 (its mixed-sign comparison loops: 2**60 < 2**60 + 1).
#pragma once

#include "ufunc_definition.hpp"

#include <kiln/argument.hpp>
#include <kiln/dtype.hpp>
#include <kiln/elementwise_kernel.hpp>

#include <optional>
#include <span>

namespace kiln::detail {

// The one answer of comparison `ufunc` on `args` in integer loop dtype `loop` when a scalar
// argument lies outside loop's range; nullopt when `ufunc` is no comparison or every scalar fits.
[[nodiscard]] std::optional<bool> out_of_range_comparison(const UfuncDefinition& ufunc,
                                                          std::span<const Argument> args,
                                                          DType loop);

// Whether comparison `ufunc` of inputs of `dtypes`, all integers, promoted to `promoted`, which
// is not an integer (int64 with uint64: float64), must compare the inputs' own values instead.
[[nodiscard]] bool compares_integers_exactly(const UfuncDefinition& ufunc,
                                             std::span<const DType> dtypes, DType promoted);

// For comparison `ufunc` of integers whose promoted dtype `promoted` is not an integer: a kernel
// that compares the inputs' own values exactly, writing `out`, built once per process; nullptr
// otherwise.
[[nodiscard]] const ElementwiseKernel* integer_comparison_kernel(const UfuncDefinition& ufunc,
                                                                 std::span<const Argument> args,
                                                                 DType promoted, DType out);

}  // namespace kiln::detail
