// NumPy's universal functions on kiln arrays and scalars, with CuPy's names: element-wise
// arithmetic, comparisons, logic, bitwise operations and math, with broadcasting, an optional
// `out` and an optional `dtype`. Each runs as one ElementwiseKernel per ufunc and loop dtype,
// compiled once and cached like every other.
//
// Types follow NumPy 2 (NEP 50): arrays promote as numpy.result_type (numpy.promote_types for
// two; three or more find one common dtype, as NumPy does, not a fold of pairs); a C++ scalar is
// "weak", so it takes the arrays' dtype when its kind (bool < integer < floating < complex) is not
// higher (`float32 array * 2.0` is float32), and a scalar that the dtype cannot represent is a
// TypeError, except in a comparison, which is exact (`int8 array < 1000` is all true). Integer
// arithmetic wraps; integer division and remainder by zero give 0; true division of integers is
// float64; floor_divide, remainder and power of bools are int8 (NumPy has no bool loop); math
// functions of integers compute in the smallest floating dtype that holds them (int8
// -> float16, int16 -> float32, wider -> float64).
#pragma once

#include <kiln/argument.hpp>
#include <kiln/dtype.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/stream_view.hpp>

#include <optional>
#include <span>

namespace kiln {

struct UfuncOptions {
    // Written in place: it must have the broadcast shape, and the result must cast to its dtype
    // at 'same_kind'. The call returns it.
    std::optional<ndarray> out;
    // The dtype to compute in (and return, for arithmetic): every input must cast to it at
    // 'same_kind'.
    std::optional<DType> dtype;
    std::optional<StreamView> stream;  // default: the arrays' device's current stream
};

// numpy.result_type under NEP 50: arrays are strong, scalars weak. Throws TypeError when no
// argument is given.
[[nodiscard]] DType result_type(std::span<const Argument> args);

// Arithmetic.
ndarray add(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray subtract(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray multiply(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray divide(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray true_divide(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray floor_divide(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray remainder(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray power(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray maximum(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray minimum(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray fmax(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray fmin(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray negative(const Argument& x, const UfuncOptions& options = {});
ndarray positive(const Argument& x, const UfuncOptions& options = {});
ndarray absolute(const Argument& x, const UfuncOptions& options = {});
ndarray sign(const Argument& x, const UfuncOptions& options = {});
ndarray reciprocal(const Argument& x, const UfuncOptions& options = {});
ndarray square(const Argument& x, const UfuncOptions& options = {});

// Comparisons and logic: bool results.
ndarray equal(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray not_equal(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray less(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray less_equal(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray greater(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray greater_equal(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray logical_and(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray logical_or(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray logical_xor(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray logical_not(const Argument& x, const UfuncOptions& options = {});
ndarray isnan(const Argument& x, const UfuncOptions& options = {});
ndarray isinf(const Argument& x, const UfuncOptions& options = {});
ndarray isfinite(const Argument& x, const UfuncOptions& options = {});

// Bitwise operations and shifts, for bool and integer dtypes (shifts: integers only).
ndarray bitwise_and(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray bitwise_or(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray bitwise_xor(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray invert(const Argument& x, const UfuncOptions& options = {});
ndarray left_shift(const Argument& x, const Argument& y, const UfuncOptions& options = {});
ndarray right_shift(const Argument& x, const Argument& y, const UfuncOptions& options = {});

// clip(a, a_min, a_max) = minimum(maximum(a, a_min), a_max), as NumPy's: NaN propagates.
ndarray clip(const Argument& a, const Argument& a_min, const Argument& a_max,
             const UfuncOptions& options = {});
// x where `condition` is non-zero, else y; the result's dtype is result_type(x, y).
ndarray where(const Argument& condition, const Argument& x, const Argument& y,
              const UfuncOptions& options = {});

// Complex parts: real and imag of a real array are the array and zeros; angle in radians.
ndarray real(const Argument& x, const UfuncOptions& options = {});
ndarray imag(const Argument& x, const UfuncOptions& options = {});
ndarray conj(const Argument& x, const UfuncOptions& options = {});
ndarray angle(const Argument& x, const UfuncOptions& options = {});

// Exponentials, logarithms and roots (exp, log and sqrt take complex too).
ndarray exp(const Argument& x, const UfuncOptions& options = {});
ndarray exp2(const Argument& x, const UfuncOptions& options = {});
ndarray expm1(const Argument& x, const UfuncOptions& options = {});
ndarray log(const Argument& x, const UfuncOptions& options = {});
ndarray log2(const Argument& x, const UfuncOptions& options = {});
ndarray log10(const Argument& x, const UfuncOptions& options = {});
ndarray log1p(const Argument& x, const UfuncOptions& options = {});
ndarray sqrt(const Argument& x, const UfuncOptions& options = {});
ndarray cbrt(const Argument& x, const UfuncOptions& options = {});

// Trigonometric and hyperbolic functions, and rounding, for real dtypes.
ndarray sin(const Argument& x, const UfuncOptions& options = {});
ndarray cos(const Argument& x, const UfuncOptions& options = {});
ndarray tan(const Argument& x, const UfuncOptions& options = {});
ndarray arcsin(const Argument& x, const UfuncOptions& options = {});
ndarray arccos(const Argument& x, const UfuncOptions& options = {});
ndarray arctan(const Argument& x, const UfuncOptions& options = {});
ndarray sinh(const Argument& x, const UfuncOptions& options = {});
ndarray cosh(const Argument& x, const UfuncOptions& options = {});
ndarray tanh(const Argument& x, const UfuncOptions& options = {});
ndarray arcsinh(const Argument& x, const UfuncOptions& options = {});
ndarray arccosh(const Argument& x, const UfuncOptions& options = {});
ndarray arctanh(const Argument& x, const UfuncOptions& options = {});
ndarray floor(const Argument& x, const UfuncOptions& options = {});
ndarray ceil(const Argument& x, const UfuncOptions& options = {});
ndarray trunc(const Argument& x, const UfuncOptions& options = {});
ndarray rint(const Argument& x, const UfuncOptions& options = {});

}  // namespace kiln
