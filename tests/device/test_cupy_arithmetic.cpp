// CuPy's tests of division, remainder and power, translated case by case from
// tests/cupy_tests/math_tests/test_arithmetic.py (each test names its source class and
// parametrisation): true_divide and divide (TestArithmeticBinary, TestArithmeticBinary2), power's
// zero bases and negative exponents (TestArithmeticBinary2), floor_divide and remainder
// (TestArithmeticBinary2, TestArithmeticBinary3). kiln has no fmod ufunc, so CuPy's fmod cases are
// left out. CuPy compares with NumPy; here the expected dtypes come from NumPy 2's promotion rules
// (NEP 50) written out below, and the expected values from Python's arithmetic on the host.
#include "tests/support/backend_under_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace {

using kiln::DType;
using kiln::ndarray;
using Value = std::complex<double>;

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// CuPy's dtype lists.
const std::vector<DType> float_types = {DType::float16, DType::float32, DType::float64};
const std::vector<DType> signed_int_types = {DType::int8, DType::int16, DType::int32, DType::int64};
const std::vector<DType> unsigned_int_types = {DType::uint8, DType::uint16, DType::uint32,
                                               DType::uint64};
const std::vector<DType> complex_types = {DType::complex64, DType::complex128};

std::vector<DType> joined(std::initializer_list<std::vector<DType>> lists) {
    std::vector<DType> all;
    for (const auto& list : lists) {
        all.insert(all.end(), list.begin(), list.end());
    }
    return all;
}

// bool < integer < floating < complex, NumPy's kind order.
int category(char kind) {
    switch (kind) {
        case 'b':
            return 0;
        case 'i':
        case 'u':
            return 1;
        case 'f':
            return 2;
        default:
            return 3;
    }
}

// The smallest float holding every value of `t` (for complex: its parts' float).
DType float_holding(DType t) {
    const std::size_t size = kiln::itemsize(t);
    switch (kiln::kind(t)) {
        case 'f':
            return t;
        case 'c':
            return size == 8 ? DType::float32 : DType::float64;
        default:
            return size == 1 ? DType::float16 : (size == 2 ? DType::float32 : DType::float64);
    }
}

DType complex_of(DType f) {
    return f == DType::float64 ? DType::complex128 : DType::complex64;
}

DType signed_of_size(std::size_t size) {
    return size == 2 ? DType::int16 : (size == 4 ? DType::int32 : DType::int64);
}

// numpy.promote_types for the dtypes used here.
DType promote(DType a, DType b) {
    if (a == b || kiln::kind(b) == 'b') {
        return a;
    }
    if (kiln::kind(a) == 'b') {
        return b;
    }
    const char ka = kiln::kind(a);
    const char kb = kiln::kind(b);
    if (category(ka) == 1 && category(kb) == 1) {
        if (ka == kb) {
            return kiln::itemsize(a) > kiln::itemsize(b) ? a : b;
        }
        const DType s = ka == 'i' ? a : b;
        const DType u = ka == 'i' ? b : a;
        if (kiln::itemsize(s) > kiln::itemsize(u)) {
            return s;
        }
        return kiln::itemsize(u) < 8 ? signed_of_size(2 * kiln::itemsize(u)) : DType::float64;
    }
    const DType fa = float_holding(a);
    const DType fb = float_holding(b);
    const DType f = kiln::itemsize(fa) >= kiln::itemsize(fb) ? fa : fb;
    return (ka == 'c' || kb == 'c') ? complex_of(f) : f;
}

// NEP 50: a Python scalar of `kind` ('b', 'i', 'f', 'c') is weak against an array of `a`.
DType with_python_scalar(DType a, char kind) {
    if (category(kind) <= category(kiln::kind(a))) {
        return a;
    }
    switch (kind) {
        case 'i':
            return DType::int64;
        case 'f':
            return DType::float64;
        default:
            return kiln::kind(a) == 'f' ? complex_of(a) : DType::complex128;
    }
}

// One of CuPy's operands: an array, or a Python scalar (bool, int, float or complex).
struct Operand {
    std::string name;
    std::optional<DType> dtype;  // empty for a scalar
    char scalar_kind = 0;
    kiln::Argument argument;
    std::vector<Value> values;  // one per element of the (2, 3) result
};

Operand array_operand(const std::vector<double>& values, DType dtype) {
    // Real values as `dtype` holds them (bool: non-zero is True); complex dtypes get v + vj, as
    // CuPy's shaped_arange builds them.
    std::vector<Value> held;
    std::vector<Value> complex_values;
    for (const double v : values) {
        const double real = kiln::kind(dtype) == 'b' ? (v != 0 ? 1 : 0) : v;
        held.emplace_back(real, kiln::kind(dtype) == 'c' ? real : 0);
        complex_values.push_back(held.back());
    }
    const ndarray a = kiln::kind(dtype) == 'c' ? kiln::array(complex_values).astype(dtype)
                                               : kiln::array(values).astype(dtype);
    return {std::string(kiln::name(dtype)), dtype, 0, a.reshape({2, 3}), held};
}

// shaped_arange((2, 3), dtype): 1..6, and for bool the evens.
Operand shaped_arange(DType dtype) {
    return kiln::kind(dtype) == 'b' ? array_operand({0, 1, 0, 1, 0, 1}, dtype)
                                    : array_operand({1, 2, 3, 4, 5, 6}, dtype);
}

// shaped_reverse_arange((2, 3), dtype): 6..1, and for bool the evens.
Operand shaped_reverse_arange(DType dtype) {
    return kiln::kind(dtype) == 'b' ? array_operand({1, 0, 1, 0, 1, 0}, dtype)
                                    : array_operand({6, 5, 4, 3, 2, 1}, dtype);
}

Operand signed_values(DType dtype) {
    return array_operand({-3, -2, -1, 1, 2, 3}, dtype);
}

Operand unsigned_values(DType dtype) {
    return array_operand({3, 2, 1, 1, 2, 3}, dtype);
}

template <class T>
Operand python_scalar(T value, char kind, const std::string& name) {
    return {name, std::nullopt, kind, kiln::Scalar(value), std::vector<Value>(6, Value(value))};
}

Operand python_bool(bool value) {
    return {value ? "True" : "False", std::nullopt, 'b', kiln::Scalar(value),
            std::vector<Value>(6, Value(value ? 1 : 0))};
}

// CuPy's Python scalars 0, 0.0, 2, 2.0, -2, -2.0, True, False (its real ones).
std::vector<Operand> real_python_scalars() {
    return {python_scalar(std::int64_t{0}, 'i', "0"),
            python_scalar(0.0, 'f', "0.0"),
            python_scalar(std::int64_t{2}, 'i', "2"),
            python_scalar(2.0, 'f', "2.0"),
            python_scalar(std::int64_t{-2}, 'i', "-2"),
            python_scalar(-2.0, 'f', "-2.0"),
            python_bool(true),
            python_bool(false)};
}

// The result dtype of a binary ufunc on two operands (at most one of them a scalar).
DType promoted(const Operand& x, const Operand& y) {
    if (!x.dtype) {
        return with_python_scalar(*y.dtype, x.scalar_kind);
    }
    if (!y.dtype) {
        return with_python_scalar(*x.dtype, y.scalar_kind);
    }
    return promote(*x.dtype, *y.dtype);
}

// A ufunc's loop: true_divide computes integers and bools in float64; NumPy's floor_divide,
// remainder and power have no bool loop, and bools take their first, int8.
enum class Loop { true_division, integer_for_bool };

DType result_dtype(Loop loop, DType promoted_dtype) {
    if (loop == Loop::true_division && category(kiln::kind(promoted_dtype)) <= 1) {
        return DType::float64;
    }
    if (loop == Loop::integer_for_bool && promoted_dtype == DType::bool_) {
        return DType::int8;
    }
    return promoted_dtype;
}

// The relative error allowed for a dtype's rounding of the exact result.
double tolerance(DType dtype) {
    switch (float_holding(dtype)) {
        case DType::float16:
            return 1e-3;
        case DType::float32:
            return 1e-6;
        default:
            return 1e-14;
    }
}

// Within `rtol` of `expected`; NaN, infinities and signed zeros exactly (CuPy's atol of 1e-4
// would let a zero of the wrong sign pass, NumPy's rules do not).
void expect_close(double actual, double expected, double rtol, const std::string& where) {
    if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(actual)) << where << ": " << actual;
    } else if (std::isinf(expected) || expected == 0) {
        EXPECT_EQ(actual, expected) << where;
        EXPECT_EQ(std::signbit(actual), std::signbit(expected)) << where << ": " << actual;
    } else {
        EXPECT_NEAR(actual, expected, rtol * std::abs(expected)) << where;
    }
}

// A complex result within `rtol` of `expected`'s magnitude (a part that should be 0 may be a
// rounding error of the other); a real one part by part.
void expect_close(Value actual, Value expected, DType dtype, const std::string& where) {
    if (kiln::kind(dtype) == 'c') {
        EXPECT_LE(std::abs(actual - expected), tolerance(dtype) * std::abs(expected))
            << where << ": " << actual << " for " << expected;
        return;
    }
    expect_close(actual.real(), expected.real(), tolerance(dtype), where);
    EXPECT_EQ(actual.imag(), 0) << where;
}

using Ufunc = ndarray (*)(const kiln::Argument&, const kiln::Argument&, const kiln::UfuncOptions&);
// The expected element for two elements, computed in the result dtype's kind.
using Reference = std::function<Value(Value, Value, DType)>;

// Runs `ufunc` on every pair of operands (not two scalars), optionally with dtype=float64, and
// checks the result's dtype and values.
void check_binary(const std::string& name, Ufunc ufunc, Loop loop, const Reference& reference,
                  const std::vector<Operand>& operands, bool use_dtype) {
    for (const Operand& x : operands) {
        for (const Operand& y : operands) {
            if (!x.dtype && !y.dtype) {
                continue;
            }
            const std::string where =
                name + "(" + x.name + ", " + y.name + ")" + (use_dtype ? ", dtype=float64" : "");
            const DType expected_dtype =
                use_dtype ? DType::float64 : result_dtype(loop, promoted(x, y));
            kiln::UfuncOptions options;
            if (use_dtype) {
                options.dtype = DType::float64;
            }
            const ndarray result = ufunc(x.argument, y.argument, options);
            ASSERT_EQ(result.dtype(), expected_dtype) << where;
            ASSERT_EQ(result.shape(), (kiln::Shape{2, 3})) << where;
            const auto actual = result.astype(DType::complex128).get<Value>();
            for (std::size_t i = 0; i < actual.size(); ++i) {
                const Value expected = reference(x.values[i], y.values[i], expected_dtype);
                expect_close(actual[i], expected, expected_dtype,
                             where + " at " + std::to_string(i));
            }
        }
    }
}

// Python's true division, and IEEE's for a zero divisor (x / 0 is inf with x's sign, 0 / 0 NaN).
Value true_quotient(Value a, Value b, DType dtype) {
    if (kiln::kind(dtype) == 'c') {
        return a / b;
    }
    return {a.real() / b.real(), 0};
}

// Python's floor division, with NumPy's 0 for an integer divided by zero and IEEE's division for
// a float divided by zero; a zero quotient has the sign of the true quotient.
Value floor_quotient(Value a, Value b, DType dtype) {
    const double n = a.real();
    const double d = b.real();
    if (d == 0) {
        return {category(kiln::kind(dtype)) == 1 ? 0 : n / d, 0};
    }
    const double q = std::floor(n / d);
    if (category(kiln::kind(dtype)) == 1) {
        return {q + 0.0, 0};  // an integer has no -0
    }
    return {q == 0 ? std::copysign(0.0, n / d) : q, 0};
}

// Python's modulo: the divisor's sign (a zero float remainder too), with NumPy's 0 for an integer
// divided by zero and NaN for a float divided by zero.
Value python_remainder(Value a, Value b, DType dtype) {
    const double n = a.real();
    const double d = b.real();
    const bool integer = category(kiln::kind(dtype)) == 1;
    if (d == 0) {
        return {integer ? 0 : nan, 0};
    }
    const double r = n - d * std::floor(n / d);
    return {r == 0 && !integer ? std::copysign(0.0, d) : r, 0};
}

// C's pow: a zero base to a negative power is infinite.
Value real_power(Value a, Value b, DType /*dtype*/) {
    return {std::pow(a.real(), b.real()), 0};
}

std::vector<Operand> arrays_and_scalars(const std::vector<DType>& dtypes, Operand (*make)(DType),
                                        const std::vector<Operand>& scalars) {
    std::vector<Operand> operands;
    for (const DType dtype : dtypes) {
        operands.push_back(make(dtype));
    }
    operands.insert(operands.end(), scalars.begin(), scalars.end());
    return operands;
}

TEST(CupyArithmetic, TrueDivideOfSignedAndComplexOperands) {
    KILN_REQUIRE_DEVICE();
    // TestArithmeticBinary, names divide and true_divide: [-3, -2, -1, 1, 2, 3] of every dtype
    // that holds negatives (negative_types), and the Python scalars 0, 0.0, 0j, 2, 2.0, 2j, -2,
    // -2.0, -2j, True, False, each as either operand. A complex zero divisor gives a non-finite
    // result whose parts NumPy leaves to the platform, so those elements are checked apart.
    std::vector<Operand> scalars = real_python_scalars();
    scalars.push_back(python_scalar(Value(0, 0), 'c', "0j"));
    scalars.push_back(python_scalar(Value(0, 2), 'c', "2j"));
    scalars.push_back(python_scalar(Value(0, -2), 'c', "-2j"));
    const std::vector<Operand> operands =
        arrays_and_scalars(joined({{DType::bool_}, float_types, signed_int_types, complex_types}),
                           &signed_values, scalars);
    const std::vector<std::pair<std::string, Ufunc>> divisions = {
        {"divide", &kiln::divide}, {"true_divide", &kiln::true_divide}};
    for (const auto& [name, ufunc] : divisions) {
        for (const Operand& x : operands) {
            for (const Operand& y : operands) {
                if (!x.dtype && !y.dtype) {
                    continue;
                }
                const std::string where = name + "(" + x.name + ", " + y.name + ")";
                const DType expected_dtype = result_dtype(Loop::true_division, promoted(x, y));
                const ndarray result = ufunc(x.argument, y.argument, {});
                ASSERT_EQ(result.dtype(), expected_dtype) << where;
                const auto actual = result.astype(DType::complex128).get<Value>();
                for (std::size_t i = 0; i < actual.size(); ++i) {
                    const std::string at = where + " at " + std::to_string(i);
                    if (kiln::kind(expected_dtype) == 'c' && y.values[i] == Value(0)) {
                        EXPECT_FALSE(std::isfinite(actual[i].real()) &&
                                     std::isfinite(actual[i].imag()))
                            << at << ": " << actual[i];
                        continue;
                    }
                    expect_close(actual[i], true_quotient(x.values[i], y.values[i], expected_dtype),
                                 expected_dtype, at);
                }
            }
        }
    }
}

TEST(CupyArithmetic, TrueDivideOfIntegersWithAndWithoutDtype) {
    KILN_REQUIRE_DEVICE();
    // TestArithmeticBinary2, true_divide: [3, 2, 1, 1, 2, 3] of unsigned_int_types and
    // [-3, -2, -1, 1, 2, 3] of signed_int_types, with the real Python scalars, with and without
    // dtype=float64. Integers divide in float64, so an unsigned array divided by -2 is negative
    // (CuPy marks uint64 / -2 as its own failure; NumPy gives -1.5).
    for (const bool use_dtype : {false, true}) {
        check_binary(
            "true_divide", &kiln::true_divide, Loop::true_division, &true_quotient,
            arrays_and_scalars(unsigned_int_types, &unsigned_values, real_python_scalars()),
            use_dtype);
        check_binary("true_divide", &kiln::true_divide, Loop::true_division, &true_quotient,
                     arrays_and_scalars(signed_int_types, &signed_values, real_python_scalars()),
                     use_dtype);
    }
}

TEST(CupyArithmetic, PowerAndTrueDivideOfFloatsWithAndWithoutDtype) {
    KILN_REQUIRE_DEVICE();
    // TestArithmeticBinary2, names power and true_divide: [-3, -2, -1, 1, 2, 3] of float_types and
    // the Python floats 0.0, 2.0, -2.0, with and without dtype=float64: a zero base to a negative
    // power and a division by zero are infinite.
    const std::vector<Operand> operands =
        arrays_and_scalars(float_types, &signed_values,
                           {python_scalar(0.0, 'f', "0.0"), python_scalar(2.0, 'f', "2.0"),
                            python_scalar(-2.0, 'f', "-2.0")});
    for (const bool use_dtype : {false, true}) {
        check_binary("power", &kiln::power, Loop::integer_for_bool, &real_power, operands,
                     use_dtype);
        check_binary("true_divide", &kiln::true_divide, Loop::true_division, &true_quotient,
                     operands, use_dtype);
    }
}

TEST(CupyArithmetic, FloorDivideAndRemainderOfSignedOperands) {
    KILN_REQUIRE_DEVICE();
    // TestArithmeticBinary2, names floor_divide and remainder: [-3, -2, -1, 1, 2, 3] of
    // negative_no_complex_types and the real Python scalars, with and without dtype=float64.
    // CuPy lets a float divided by zero give NaN for NumPy's inf; kiln gives NumPy's values.
    const std::vector<Operand> operands =
        arrays_and_scalars(joined({{DType::bool_}, float_types, signed_int_types}), &signed_values,
                           real_python_scalars());
    for (const bool use_dtype : {false, true}) {
        check_binary("floor_divide", &kiln::floor_divide, Loop::integer_for_bool, &floor_quotient,
                     operands, use_dtype);
        check_binary("remainder", &kiln::remainder, Loop::integer_for_bool, &python_remainder,
                     operands, use_dtype);
    }
}

TEST(CupyArithmetic, FloorDivideAndRemainderOfArangesOfEveryRealDtype) {
    KILN_REQUIRE_DEVICE();
    // TestArithmeticBinary3.test_both_raise, names floor_divide and remainder: shaped_arange and
    // shaped_reverse_arange of no_complex_types (bool: the evens, so False divisors) and the real
    // Python scalars. NumPy raises OverflowError where a negative Python int meets an unsigned
    // array (it must become the unsigned loop's dtype); kiln raises TypeError there.
    const std::vector<DType> dtypes =
        joined({{DType::bool_}, float_types, signed_int_types, unsigned_int_types});
    struct Case {
        std::string name;
        Ufunc ufunc;
        Value (*reference)(Value, Value, DType);
    };
    for (const auto& [name, ufunc, reference] :
         {Case{"floor_divide", &kiln::floor_divide, &floor_quotient},
          Case{"remainder", &kiln::remainder, &python_remainder}}) {
        for (const Operand& x : arrays_and_scalars(dtypes, &shaped_arange, real_python_scalars())) {
            for (const Operand& y :
                 arrays_and_scalars(dtypes, &shaped_reverse_arange, real_python_scalars())) {
                if (!x.dtype && !y.dtype) {
                    continue;
                }
                const std::string where = name + "(" + x.name + ", " + y.name + ")";
                const Operand& array = x.dtype ? x : y;
                const Operand& other = x.dtype ? y : x;
                const bool negative_int_to_unsigned = !other.dtype && other.scalar_kind == 'i' &&
                                                      other.values[0].real() < 0 &&
                                                      kiln::kind(*array.dtype) == 'u';
                if (negative_int_to_unsigned) {
                    EXPECT_THROW((void)ufunc(x.argument, y.argument, {}), kiln::TypeError) << where;
                    continue;
                }
                const DType expected_dtype = result_dtype(Loop::integer_for_bool, promoted(x, y));
                const ndarray result = ufunc(x.argument, y.argument, {});
                ASSERT_EQ(result.dtype(), expected_dtype) << where;
                const auto actual = result.astype(DType::float64).get<double>();
                for (std::size_t i = 0; i < actual.size(); ++i) {
                    const double expected =
                        reference(x.values[i], y.values[i], expected_dtype).real();
                    expect_close(actual[i], expected, tolerance(expected_dtype),
                                 where + " at " + std::to_string(i));
                }
            }
        }
    }
}

}  // namespace
