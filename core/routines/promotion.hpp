// NEP 50 promotion over dtypes alone, so that it is tested without arrays: numpy.result_type of
// arrays of the `strong` dtypes and scalars of the `weak` dtypes.
#pragma once

#include <kiln/dtype.hpp>

#include <span>

namespace kiln::detail {

// numpy.result_type of arrays of `dtypes` (NumPy's PyArray_PromoteDTypeSequence, not a fold of
// pairs): see promotion.cpp. Throws TypeError when `dtypes` is empty.
[[nodiscard]] DType promote_dtypes(std::span<const DType> dtypes);

// Strong dtypes promote as promote_types; weak ones only raise the result to their kind (bool <
// integer < floating < complex), to NumPy's default dtype of that kind at the precision the
// result has (float32 and a complex scalar give complex64). Weak dtypes alone promote among
// themselves, as their C++ types would. Throws TypeError when both are empty.
[[nodiscard]] DType promote_weak(std::span<const DType> strong, std::span<const DType> weak);

// The dtype of a value's real part: float32 for complex64, float64 for complex128, else itself.
[[nodiscard]] DType real_dtype(DType dtype);

}  // namespace kiln::detail
