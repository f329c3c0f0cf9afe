/// @file
/// NumPy's universal functions on kiln arrays and scalars, with CuPy's names: element-wise
/// arithmetic, comparisons, logic, bitwise operations and math, with broadcasting, an optional
/// `out` and an optional `dtype`. Each runs as one ElementwiseKernel per ufunc and loop dtype,
/// compiled once and cached like every other.
///
/// Types follow NumPy 2 (NEP 50): arrays promote as numpy.result_type (numpy.promote_types for
/// two; three or more find one common dtype, as NumPy does, not a fold of pairs); a C++ scalar is
/// "weak", so it takes the arrays' dtype when its kind (bool < integer < floating < complex) is not
/// higher (`float32 array * 2.0` is float32), and a scalar that the dtype cannot represent is a
/// TypeError, except in a comparison, which is exact (`int8 array < 1000` is all true). Integer
/// arithmetic wraps; integer division and remainder by zero give 0; true division of integers is
/// float64; floor_divide, remainder and power of bools are int8 (NumPy has no bool loop); math
/// functions of integers compute in the smallest floating dtype that holds them (int8 -> float16,
/// int16 -> float32, wider -> float64).
#pragma once

#include <kiln/argument.hpp>
#include <kiln/dtype.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/stream_view.hpp>

#include <optional>
#include <span>

namespace kiln {

/// The options of every ufunc (NumPy's keyword arguments out, dtype, and a stream).
struct UfuncOptions {
    /// Written in place: it must have the broadcast shape, and the result must cast to its dtype
    /// at 'same_kind'. The call returns it.
    std::optional<ndarray> out;
    /// The dtype to compute in (and return, for arithmetic): every input must cast to it at
    /// 'same_kind'.
    std::optional<DType> dtype;
    std::optional<StreamView> stream;  ///< default: the arrays' device's current stream
};

/// numpy.result_type under NEP 50: arrays are strong, scalars weak. Throws TypeError when no
/// argument is given.
[[nodiscard]] DType result_type(std::span<const Argument> args);

// Arithmetic.
/// x + y. Element-wise, as numpy.add.
ndarray add(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x - y. Element-wise, as numpy.subtract.
ndarray subtract(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x * y. Element-wise, as numpy.multiply.
ndarray multiply(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x / y, true division (integers give float64); the same as true_divide. Element-wise, as
/// numpy.divide.
ndarray divide(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x / y, true division (integers give float64). Element-wise, as numpy.true_divide.
ndarray true_divide(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x // y: the quotient rounded toward minus infinity (integer division by zero gives 0).
/// Element-wise, as numpy.floor_divide.
ndarray floor_divide(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x % y with the sign of y, as Python's (integer remainder by zero gives 0). Element-wise, as
/// numpy.remainder.
ndarray remainder(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x to the power y. Element-wise, as numpy.power.
ndarray power(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// The larger of x and y; NaN if either is NaN. Element-wise, as numpy.maximum.
ndarray maximum(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// The smaller of x and y; NaN if either is NaN. Element-wise, as numpy.minimum.
ndarray minimum(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// The larger of x and y, ignoring a NaN when the other is not NaN. Element-wise, as numpy.fmax.
ndarray fmax(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// The smaller of x and y, ignoring a NaN when the other is not NaN. Element-wise, as numpy.fmin.
ndarray fmin(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// -x. Element-wise, as numpy.negative.
ndarray negative(const Argument& x, const UfuncOptions& options = {});
/// +x (a copy). Element-wise, as numpy.positive.
ndarray positive(const Argument& x, const UfuncOptions& options = {});
/// |x| (the modulus for complex x, as a real dtype). Element-wise, as numpy.absolute.
ndarray absolute(const Argument& x, const UfuncOptions& options = {});
/// -1, 0 or 1 by the sign of x (NaN for NaN). Element-wise, as numpy.sign.
ndarray sign(const Argument& x, const UfuncOptions& options = {});
/// 1 / x (for integers: integer division, and 0 for 0). Element-wise, as numpy.reciprocal.
ndarray reciprocal(const Argument& x, const UfuncOptions& options = {});
/// x * x. Element-wise, as numpy.square.
ndarray square(const Argument& x, const UfuncOptions& options = {});

// Comparisons and logic: bool results.
/// x == y. Element-wise, as numpy.equal.
ndarray equal(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x != y. Element-wise, as numpy.not_equal.
ndarray not_equal(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x < y. Element-wise, as numpy.less.
ndarray less(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x <= y. Element-wise, as numpy.less_equal.
ndarray less_equal(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x > y. Element-wise, as numpy.greater.
ndarray greater(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x >= y. Element-wise, as numpy.greater_equal.
ndarray greater_equal(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x && y, of the truth values. Element-wise, as numpy.logical_and.
ndarray logical_and(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x || y, of the truth values. Element-wise, as numpy.logical_or.
ndarray logical_or(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x != y, of the truth values. Element-wise, as numpy.logical_xor.
ndarray logical_xor(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// !x. Element-wise, as numpy.logical_not.
ndarray logical_not(const Argument& x, const UfuncOptions& options = {});
/// Whether x is NaN. Element-wise, as numpy.isnan.
ndarray isnan(const Argument& x, const UfuncOptions& options = {});
/// Whether x is infinite. Element-wise, as numpy.isinf.
ndarray isinf(const Argument& x, const UfuncOptions& options = {});
/// Whether x is neither infinite nor NaN. Element-wise, as numpy.isfinite.
ndarray isfinite(const Argument& x, const UfuncOptions& options = {});

// Bitwise operations and shifts, for bool and integer dtypes (shifts: integers only).
/// x & y. Element-wise, as numpy.bitwise_and.
ndarray bitwise_and(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x | y. Element-wise, as numpy.bitwise_or.
ndarray bitwise_or(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x ^ y. Element-wise, as numpy.bitwise_xor.
ndarray bitwise_xor(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// ~x (for bool: logical not). Element-wise, as numpy.invert.
ndarray invert(const Argument& x, const UfuncOptions& options = {});
/// x << y. Element-wise, as numpy.left_shift.
ndarray left_shift(const Argument& x, const Argument& y, const UfuncOptions& options = {});
/// x >> y (arithmetic for signed integers). Element-wise, as numpy.right_shift.
ndarray right_shift(const Argument& x, const Argument& y, const UfuncOptions& options = {});

/// clip(a, a_min, a_max) = minimum(maximum(a, a_min), a_max), as NumPy's: NaN propagates.
ndarray clip(const Argument& a, const Argument& a_min, const Argument& a_max,
             const UfuncOptions& options = {});
/// x where `condition` is non-zero, else y; the result's dtype is result_type(x, y).
ndarray where(const Argument& condition, const Argument& x, const Argument& y,
              const UfuncOptions& options = {});

// Complex parts: real and imag of a real array are the array and zeros; angle in radians.
/// The real part (x itself for a real array). Element-wise, as numpy.real.
ndarray real(const Argument& x, const UfuncOptions& options = {});
/// The imaginary part (zeros for a real array). Element-wise, as numpy.imag.
ndarray imag(const Argument& x, const UfuncOptions& options = {});
/// The complex conjugate (x itself for a real array). Element-wise, as numpy.conj.
ndarray conj(const Argument& x, const UfuncOptions& options = {});
/// The argument of complex x, in radians. Element-wise, as numpy.angle.
ndarray angle(const Argument& x, const UfuncOptions& options = {});

// Exponentials, logarithms and roots (exp, log and sqrt take complex too).
/// e to the x. Element-wise, as numpy.exp.
ndarray exp(const Argument& x, const UfuncOptions& options = {});
/// 2 to the x. Element-wise, as numpy.exp2.
ndarray exp2(const Argument& x, const UfuncOptions& options = {});
/// exp(x) - 1, accurate near 0. Element-wise, as numpy.expm1.
ndarray expm1(const Argument& x, const UfuncOptions& options = {});
/// The natural logarithm. Element-wise, as numpy.log.
ndarray log(const Argument& x, const UfuncOptions& options = {});
/// The base-2 logarithm. Element-wise, as numpy.log2.
ndarray log2(const Argument& x, const UfuncOptions& options = {});
/// The base-10 logarithm. Element-wise, as numpy.log10.
ndarray log10(const Argument& x, const UfuncOptions& options = {});
/// log(1 + x), accurate near 0. Element-wise, as numpy.log1p.
ndarray log1p(const Argument& x, const UfuncOptions& options = {});
/// The square root. Element-wise, as numpy.sqrt.
ndarray sqrt(const Argument& x, const UfuncOptions& options = {});
/// The cube root. Element-wise, as numpy.cbrt.
ndarray cbrt(const Argument& x, const UfuncOptions& options = {});

// Trigonometric and hyperbolic functions, and rounding, for real dtypes.
/// The sine, x in radians. Element-wise, as numpy.sin.
ndarray sin(const Argument& x, const UfuncOptions& options = {});
/// The cosine, x in radians. Element-wise, as numpy.cos.
ndarray cos(const Argument& x, const UfuncOptions& options = {});
/// The tangent, x in radians. Element-wise, as numpy.tan.
ndarray tan(const Argument& x, const UfuncOptions& options = {});
/// The inverse sine, in radians. Element-wise, as numpy.arcsin.
ndarray arcsin(const Argument& x, const UfuncOptions& options = {});
/// The inverse cosine, in radians. Element-wise, as numpy.arccos.
ndarray arccos(const Argument& x, const UfuncOptions& options = {});
/// The inverse tangent, in radians. Element-wise, as numpy.arctan.
ndarray arctan(const Argument& x, const UfuncOptions& options = {});
/// The hyperbolic sine. Element-wise, as numpy.sinh.
ndarray sinh(const Argument& x, const UfuncOptions& options = {});
/// The hyperbolic cosine. Element-wise, as numpy.cosh.
ndarray cosh(const Argument& x, const UfuncOptions& options = {});
/// The hyperbolic tangent. Element-wise, as numpy.tanh.
ndarray tanh(const Argument& x, const UfuncOptions& options = {});
/// The inverse hyperbolic sine. Element-wise, as numpy.arcsinh.
ndarray arcsinh(const Argument& x, const UfuncOptions& options = {});
/// The inverse hyperbolic cosine. Element-wise, as numpy.arccosh.
ndarray arccosh(const Argument& x, const UfuncOptions& options = {});
/// The inverse hyperbolic tangent. Element-wise, as numpy.arctanh.
ndarray arctanh(const Argument& x, const UfuncOptions& options = {});
/// The largest integer not above x. Element-wise, as numpy.floor.
ndarray floor(const Argument& x, const UfuncOptions& options = {});
/// The smallest integer not below x. Element-wise, as numpy.ceil.
ndarray ceil(const Argument& x, const UfuncOptions& options = {});
/// x rounded toward zero. Element-wise, as numpy.trunc.
ndarray trunc(const Argument& x, const UfuncOptions& options = {});
/// x rounded to the nearest integer, halves to even. Element-wise, as numpy.rint.
ndarray rint(const Argument& x, const UfuncOptions& options = {});

}  // namespace kiln
