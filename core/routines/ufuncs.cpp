// The public ufuncs: each hands its definition (ufunc_table.hpp) and arguments to call_ufunc.
#include "ufunc_call.hpp"
#include "ufunc_table.hpp"

#include <kiln/ufuncs.hpp>

#include <array>

namespace kiln {

namespace {

ndarray unary(const detail::UfuncDefinition& ufunc, const Argument& x,
              const UfuncOptions& options) {
    const std::array<Argument, 1> args{x};
    return detail::call_ufunc(ufunc, args, options);
}

ndarray binary(const detail::UfuncDefinition& ufunc, const Argument& x, const Argument& y,
               const UfuncOptions& options) {
    const std::array<Argument, 2> args{x, y};
    return detail::call_ufunc(ufunc, args, options);
}

}  // namespace

ndarray clip(const Argument& a, const Argument& a_min, const Argument& a_max,
             const UfuncOptions& options) {
    const std::array<Argument, 3> args{a, a_min, a_max};
    return detail::call_ufunc(detail::ufuncs::clip, args, options);
}
ndarray where(const Argument& condition, const Argument& x, const Argument& y,
              const UfuncOptions& options) {
    const std::array<Argument, 3> args{condition, x, y};
    return detail::call_where(args, options);
}
ndarray real(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::real, x, options);
}
ndarray imag(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::imag, x, options);
}
ndarray conj(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::conj, x, options);
}
ndarray angle(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::angle, x, options);
}
ndarray add(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::add, x, y, options);
}
ndarray subtract(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::subtract, x, y, options);
}
ndarray multiply(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::multiply, x, y, options);
}
ndarray true_divide(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::true_divide, x, y, options);
}
ndarray floor_divide(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::floor_divide, x, y, options);
}
ndarray remainder(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::remainder, x, y, options);
}
ndarray power(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::power, x, y, options);
}
ndarray maximum(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::maximum, x, y, options);
}
ndarray minimum(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::minimum, x, y, options);
}
ndarray fmax(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::fmax, x, y, options);
}
ndarray fmin(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::fmin, x, y, options);
}
ndarray equal(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::equal, x, y, options);
}
ndarray not_equal(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::not_equal, x, y, options);
}
ndarray less(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::less, x, y, options);
}
ndarray less_equal(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::less_equal, x, y, options);
}
ndarray greater(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::greater, x, y, options);
}
ndarray greater_equal(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::greater_equal, x, y, options);
}
ndarray logical_and(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::logical_and, x, y, options);
}
ndarray logical_or(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::logical_or, x, y, options);
}
ndarray logical_xor(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::logical_xor, x, y, options);
}
ndarray bitwise_and(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::bitwise_and, x, y, options);
}
ndarray bitwise_or(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::bitwise_or, x, y, options);
}
ndarray bitwise_xor(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::bitwise_xor, x, y, options);
}
ndarray left_shift(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::left_shift, x, y, options);
}
ndarray right_shift(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::right_shift, x, y, options);
}
ndarray divide(const Argument& x, const Argument& y, const UfuncOptions& options) {
    return binary(detail::ufuncs::true_divide, x, y, options);
}
ndarray negative(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::negative, x, options);
}
ndarray positive(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::positive, x, options);
}
ndarray absolute(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::absolute, x, options);
}
ndarray sign(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::sign, x, options);
}
ndarray reciprocal(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::reciprocal, x, options);
}
ndarray square(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::square, x, options);
}
ndarray logical_not(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::logical_not, x, options);
}
ndarray isnan(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::isnan, x, options);
}
ndarray isinf(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::isinf, x, options);
}
ndarray isfinite(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::isfinite, x, options);
}
ndarray invert(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::invert, x, options);
}
ndarray exp(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::exp, x, options);
}
ndarray exp2(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::exp2, x, options);
}
ndarray expm1(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::expm1, x, options);
}
ndarray log(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::log, x, options);
}
ndarray log2(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::log2, x, options);
}
ndarray log10(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::log10, x, options);
}
ndarray log1p(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::log1p, x, options);
}
ndarray sqrt(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::sqrt, x, options);
}
ndarray cbrt(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::cbrt, x, options);
}
ndarray sin(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::sin, x, options);
}
ndarray cos(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::cos, x, options);
}
ndarray tan(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::tan, x, options);
}
ndarray arcsin(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::arcsin, x, options);
}
ndarray arccos(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::arccos, x, options);
}
ndarray arctan(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::arctan, x, options);
}
ndarray sinh(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::sinh, x, options);
}
ndarray cosh(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::cosh, x, options);
}
ndarray tanh(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::tanh, x, options);
}
ndarray arcsinh(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::arcsinh, x, options);
}
ndarray arccosh(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::arccosh, x, options);
}
ndarray arctanh(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::arctanh, x, options);
}
ndarray floor(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::floor, x, options);
}
ndarray ceil(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::ceil, x, options);
}
ndarray trunc(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::trunc, x, options);
}
ndarray rint(const Argument& x, const UfuncOptions& options) {
    return unary(detail::ufuncs::rint, x, options);
}

}  // namespace kiln
