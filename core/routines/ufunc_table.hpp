// Every ufunc kiln has, by name. Each is an inline constant, so its address identifies it in the
// kernel cache of ufunc_call.cpp.
#pragma once

#include "ufunc_definition.hpp"

#include <array>

namespace kiln::detail::ufuncs {

using enum LoopRule;
using enum OutputRule;

// clang-format off
// name, arity, loop, output: bool, integer, floating, complex operations
inline constexpr UfuncDefinition add{"add", 2, promoted, loop,
    "a || b", "kiln::ufunc::add(a, b)", "a + b", "a + b"};
inline constexpr UfuncDefinition subtract{"subtract", 2, promoted, loop,
    "", "kiln::ufunc::subtract(a, b)", "a - b", "a - b"};
inline constexpr UfuncDefinition multiply{"multiply", 2, promoted, loop,
    "a && b", "kiln::ufunc::multiply(a, b)", "a * b", "a * b"};
inline constexpr UfuncDefinition true_divide{"true_divide", 2, LoopRule::true_division, loop,
    "", "", "a / b", "a / b"};
inline constexpr UfuncDefinition floor_divide{"floor_divide", 2, bool_as_int8, loop,
    "", "kiln::ufunc::floor_divide(a, b)", "kiln::ufunc::floor_divide(a, b)", ""};
inline constexpr UfuncDefinition remainder{"remainder", 2, bool_as_int8, loop,
    "", "kiln::ufunc::remainder(a, b)", "kiln::ufunc::remainder(a, b)", ""};
inline constexpr UfuncDefinition power{"power", 2, bool_as_int8, loop,
    "", "kiln::ufunc::power(a, b)", "kiln::ufunc::power(a, b)", "pow(a, b)"};
inline constexpr UfuncDefinition maximum{"maximum", 2, promoted, loop,
    "a || b", "a > b ? a : b", "kiln::ufunc::maximum(a, b)", ""};
inline constexpr UfuncDefinition minimum{"minimum", 2, promoted, loop,
    "a && b", "a < b ? a : b", "kiln::ufunc::minimum(a, b)", ""};
inline constexpr UfuncDefinition fmax{"fmax", 2, promoted, loop,
    "a || b", "a > b ? a : b", "kiln::ufunc::fmax(a, b)", ""};
inline constexpr UfuncDefinition fmin{"fmin", 2, promoted, loop,
    "a && b", "a < b ? a : b", "kiln::ufunc::fmin(a, b)", ""};
inline constexpr UfuncDefinition negative{"negative", 1, promoted, loop,
    "", "kiln::ufunc::negative(a)", "-a", "-a"};
inline constexpr UfuncDefinition positive{"positive", 1, promoted, loop,
    "", "a", "a", "a"};
inline constexpr UfuncDefinition absolute{"absolute", 1, promoted, real_part,
    "a", "kiln::ufunc::absolute(a)", "kiln::ufunc::absolute(a)", "abs(a)"};
inline constexpr UfuncDefinition sign{"sign", 1, promoted, loop,
    "", "kiln::ufunc::sign(a)", "kiln::ufunc::sign(a)", ""};
inline constexpr UfuncDefinition reciprocal{"reciprocal", 1, promoted, loop,
    "", "a == 0 ? kiln_t(0) : kiln_t(1 / a)", "kiln_t(1) / a", "kiln_t(1) / a"};
inline constexpr UfuncDefinition square{"square", 1, promoted, loop,
    "", "kiln::ufunc::multiply(a, a)", "a * a", "a * a"};

inline constexpr UfuncDefinition equal{"equal", 2, promoted, boolean,
    "a == b", "a == b", "a == b", "a == b"};
inline constexpr UfuncDefinition not_equal{"not_equal", 2, promoted, boolean,
    "a != b", "a != b", "a != b", "a != b"};
inline constexpr UfuncDefinition less{"less", 2, promoted, boolean,
    "a < b", "a < b", "a < b", "kiln::ufunc::less(a, b)"};
inline constexpr UfuncDefinition less_equal{"less_equal", 2, promoted, boolean,
    "a <= b", "a <= b", "a <= b", "kiln::ufunc::less_equal(a, b)"};
inline constexpr UfuncDefinition greater{"greater", 2, promoted, boolean,
    "b < a", "b < a", "b < a", "kiln::ufunc::less(b, a)"};
inline constexpr UfuncDefinition greater_equal{"greater_equal", 2, promoted, boolean,
    "b <= a", "b <= a", "b <= a", "kiln::ufunc::less_equal(b, a)"};
inline constexpr std::string_view both_nonzero = "kiln::ufunc::nonzero(a) && kiln::ufunc::nonzero(b)";
inline constexpr std::string_view any_nonzero = "kiln::ufunc::nonzero(a) || kiln::ufunc::nonzero(b)";
inline constexpr std::string_view one_nonzero = "kiln::ufunc::nonzero(a) != kiln::ufunc::nonzero(b)";
inline constexpr std::string_view zero = "!kiln::ufunc::nonzero(a)";
inline constexpr UfuncDefinition logical_and{"logical_and", 2, promoted, boolean,
    both_nonzero, both_nonzero, both_nonzero, both_nonzero};
inline constexpr UfuncDefinition logical_or{"logical_or", 2, promoted, boolean,
    any_nonzero, any_nonzero, any_nonzero, any_nonzero};
inline constexpr UfuncDefinition logical_xor{"logical_xor", 2, promoted, boolean,
    one_nonzero, one_nonzero, one_nonzero, one_nonzero};
inline constexpr UfuncDefinition logical_not{"logical_not", 1, promoted, boolean,
    zero, zero, zero, zero};
inline constexpr UfuncDefinition isnan{"isnan", 1, promoted, boolean,
    "false", "false", "kiln::ufunc::isnan(a)", "kiln::ufunc::isnan(a)"};
inline constexpr UfuncDefinition isinf{"isinf", 1, promoted, boolean,
    "false", "false", "kiln::ufunc::isinf(a)", "kiln::ufunc::isinf(a)"};
inline constexpr UfuncDefinition isfinite{"isfinite", 1, promoted, boolean,
    "true", "true", "kiln::ufunc::isfinite(a)", "kiln::ufunc::isfinite(a)"};

inline constexpr UfuncDefinition bitwise_and{"bitwise_and", 2, promoted, loop,
    "a && b", "a & b", "", ""};
inline constexpr UfuncDefinition bitwise_or{"bitwise_or", 2, promoted, loop,
    "a || b", "a | b", "", ""};
inline constexpr UfuncDefinition bitwise_xor{"bitwise_xor", 2, promoted, loop,
    "a != b", "a ^ b", "", ""};
inline constexpr UfuncDefinition invert{"invert", 1, promoted, loop,
    "!a", "~a", "", ""};
inline constexpr UfuncDefinition left_shift{"left_shift", 2, promoted, loop,
    "", "kiln::ufunc::left_shift(a, b)", "", ""};
inline constexpr UfuncDefinition right_shift{"right_shift", 2, promoted, loop,
    "", "kiln::ufunc::right_shift(a, b)", "", ""};

inline constexpr UfuncDefinition clip{"clip", 3, promoted, loop,
    "kiln::ufunc::minimum(kiln::ufunc::maximum(a, b), c)",
    "kiln::ufunc::minimum(kiln::ufunc::maximum(a, b), c)",
    "kiln::ufunc::minimum(kiln::ufunc::maximum(a, b), c)", ""};
inline constexpr UfuncDefinition real{"real", 1, promoted, OutputRule::real_part, "a", "a", "a", "a.re"};
inline constexpr UfuncDefinition imag{"imag", 1, promoted, OutputRule::real_part,
    "false", "kiln_t(0)", "kiln_t(0)", "a.im"};
inline constexpr UfuncDefinition conj{"conj", 1, promoted, loop, "a", "a", "a", "conj(a)"};
inline constexpr UfuncDefinition angle{"angle", 1, inexact, OutputRule::real_part,
    "", "", "kiln::ufunc::arctan2(kiln_t(0), a)", "arg(a)"};

inline constexpr UfuncDefinition exp{"exp", 1, inexact, loop, "", "", "kiln::ufunc::exp(a)", "exp(a)"};
inline constexpr UfuncDefinition exp2{"exp2", 1, inexact, loop, "", "", "kiln::ufunc::exp2(a)", ""};
inline constexpr UfuncDefinition expm1{"expm1", 1, inexact, loop, "", "", "kiln::ufunc::expm1(a)", ""};
inline constexpr UfuncDefinition log{"log", 1, inexact, loop, "", "", "kiln::ufunc::log(a)", "log(a)"};
inline constexpr UfuncDefinition log2{"log2", 1, inexact, loop, "", "", "kiln::ufunc::log2(a)", ""};
inline constexpr UfuncDefinition log10{"log10", 1, inexact, loop, "", "", "kiln::ufunc::log10(a)", ""};
inline constexpr UfuncDefinition log1p{"log1p", 1, inexact, loop, "", "", "kiln::ufunc::log1p(a)", ""};
inline constexpr UfuncDefinition sqrt{"sqrt", 1, inexact, loop, "", "", "kiln::ufunc::sqrt(a)", "sqrt(a)"};
inline constexpr UfuncDefinition cbrt{"cbrt", 1, inexact, loop, "", "", "kiln::ufunc::cbrt(a)", ""};
inline constexpr UfuncDefinition sin{"sin", 1, inexact, loop, "", "", "kiln::ufunc::sin(a)", ""};
inline constexpr UfuncDefinition cos{"cos", 1, inexact, loop, "", "", "kiln::ufunc::cos(a)", ""};
inline constexpr UfuncDefinition tan{"tan", 1, inexact, loop, "", "", "kiln::ufunc::tan(a)", ""};
inline constexpr UfuncDefinition arcsin{"arcsin", 1, inexact, loop, "", "", "kiln::ufunc::arcsin(a)", ""};
inline constexpr UfuncDefinition arccos{"arccos", 1, inexact, loop, "", "", "kiln::ufunc::arccos(a)", ""};
inline constexpr UfuncDefinition arctan{"arctan", 1, inexact, loop, "", "", "kiln::ufunc::arctan(a)", ""};
inline constexpr UfuncDefinition sinh{"sinh", 1, inexact, loop, "", "", "kiln::ufunc::sinh(a)", ""};
inline constexpr UfuncDefinition cosh{"cosh", 1, inexact, loop, "", "", "kiln::ufunc::cosh(a)", ""};
inline constexpr UfuncDefinition tanh{"tanh", 1, inexact, loop, "", "", "kiln::ufunc::tanh(a)", ""};
inline constexpr UfuncDefinition arcsinh{"arcsinh", 1, inexact, loop, "", "", "kiln::ufunc::arcsinh(a)", ""};
inline constexpr UfuncDefinition arccosh{"arccosh", 1, inexact, loop, "", "", "kiln::ufunc::arccosh(a)", ""};
inline constexpr UfuncDefinition arctanh{"arctanh", 1, inexact, loop, "", "", "kiln::ufunc::arctanh(a)", ""};
inline constexpr UfuncDefinition floor{"floor", 1, inexact, loop, "", "", "kiln::ufunc::floor(a)", ""};
inline constexpr UfuncDefinition ceil{"ceil", 1, inexact, loop, "", "", "kiln::ufunc::ceil(a)", ""};
inline constexpr UfuncDefinition trunc{"trunc", 1, inexact, loop, "", "", "kiln::ufunc::trunc(a)", ""};
inline constexpr UfuncDefinition rint{"rint", 1, inexact, loop, "", "", "kiln::ufunc::rint(a)", ""};
// clang-format on

// Every ufunc, for tests that sweep them.
inline constexpr std::array<const UfuncDefinition*, 66> all = {
    &add,         &subtract,    &multiply,    &true_divide, &floor_divide,  &remainder,
    &power,       &maximum,     &minimum,     &fmax,        &fmin,          &negative,
    &positive,    &absolute,    &sign,        &reciprocal,  &square,        &equal,
    &not_equal,   &less,        &less_equal,  &greater,     &greater_equal, &logical_and,
    &logical_or,  &logical_xor, &logical_not, &isnan,       &isinf,         &isfinite,
    &bitwise_and, &bitwise_or,  &bitwise_xor, &invert,      &left_shift,    &right_shift,
    &clip,        &real,        &imag,        &conj,        &angle,         &exp,
    &exp2,        &expm1,       &log,         &log2,        &log10,         &log1p,
    &sqrt,        &cbrt,        &sin,         &cos,         &tan,           &arcsin,
    &arccos,      &arctan,      &sinh,        &cosh,        &tanh,          &arcsinh,
    &arccosh,     &arctanh,     &floor,       &ceil,        &trunc,         &rint,
};

}  // namespace kiln::detail::ufuncs
