// kiln's ufuncs and operators on a GPU against host loops written from NumPy's definitions:
// integer arithmetic that wraps, division and remainder by zero that give 0, floor division and
// remainder with the divisor's sign, NaN propagation, NEP 50 promotion with weak scalars,
// broadcasting, non-contiguous and zero-size inputs, `out` and `dtype`, and the errors that name
// the ufunc and the argument.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

namespace {

using kiln::ndarray;
using kiln::Shape;

// Every pair of `values`, as an (n, 1) column against a (1, n) row: the ufunc broadcasts them.
template <class T>
std::pair<ndarray, ndarray> all_pairs(const std::vector<T>& values) {
    const auto n = static_cast<std::int64_t>(values.size());
    return {kiln::array(values, kiln::Shape{n, 1}), kiln::array(values, kiln::Shape{1, n})};
}

template <class T>
std::vector<T> interesting_integers() {
    using limits = std::numeric_limits<T>;
    std::vector<T> values = {limits::min(),
                             static_cast<T>(limits::min() + 1),
                             0,
                             1,
                             2,
                             3,
                             7,
                             static_cast<T>(limits::max() - 1),
                             limits::max()};
    if constexpr (std::is_signed_v<T>) {
        for (const T v : {-1, -2, -3, -7}) {
            values.push_back(v);
        }
    }
    return values;
}

// NumPy's integer semantics, written out on the host.
template <class T, class U = std::make_unsigned_t<T>>
T wrapped_add(T a, T b) {
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <class T, class U = std::make_unsigned_t<T>>
T wrapped_subtract(T a, T b) {
    return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <class T, class U = std::make_unsigned_t<T>>
T wrapped_multiply(T a, T b) {
    using Wide = std::conditional_t<sizeof(T) < 8, std::uint32_t, std::uint64_t>;
    return static_cast<T>(static_cast<U>(static_cast<Wide>(static_cast<U>(a)) *
                                         static_cast<Wide>(static_cast<U>(b))));
}
template <class T>
T floor_divide(T a, T b) {
    if (b == 0) {
        return 0;
    }
    if constexpr (std::is_signed_v<T>) {
        if (b == -1) {
            return wrapped_subtract<T>(0, a);
        }
        const T q = static_cast<T>(a / b);
        return (a % b != 0 && ((a < 0) != (b < 0))) ? static_cast<T>(q - 1) : q;
    } else {
        return static_cast<T>(a / b);
    }
}
template <class T>
T remainder(T a, T b) {
    if constexpr (std::is_signed_v<T>) {
        if (b == 0 || b == -1) {
            return 0;
        }
        const T r = static_cast<T>(a % b);
        return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(r + b) : r;
    } else {
        return b == 0 ? 0 : static_cast<T>(a % b);
    }
}

template <class T>
void expect_integer_arithmetic() {
    SCOPED_TRACE(std::string(kiln::name(kiln::dtype_of<T>)));
    const std::vector<T> values = interesting_integers<T>();
    const auto [x, y] = all_pairs(values);
    const auto check = [&](const ndarray& got, auto reference, const char* what) {
        SCOPED_TRACE(what);
        ASSERT_EQ(got.dtype(), kiln::dtype_of<T>);
        ASSERT_EQ(got.shape(), (kiln::Shape{static_cast<std::int64_t>(values.size()),
                                            static_cast<std::int64_t>(values.size())}));
        const std::vector<T> out = got.get<T>();
        for (std::size_t i = 0; i < values.size(); ++i) {
            for (std::size_t j = 0; j < values.size(); ++j) {
                ASSERT_EQ(out[i * values.size() + j], reference(values[i], values[j]))
                    << +values[i] << " and " << +values[j];
            }
        }
    };
    check(kiln::add(x, y), wrapped_add<T>, "add");
    check(kiln::subtract(x, y), wrapped_subtract<T>, "subtract");
    check(kiln::multiply(x, y), wrapped_multiply<T>, "multiply");
    check(kiln::floor_divide(x, y), floor_divide<T>, "floor_divide");
    check(kiln::remainder(x, y), remainder<T>, "remainder");
    check(
        kiln::maximum(x, y), [](T a, T b) { return std::max(a, b); }, "maximum");
    check(
        kiln::minimum(x, y), [](T a, T b) { return std::min(a, b); }, "minimum");
    check(
        kiln::bitwise_xor(x, y), [](T a, T b) { return static_cast<T>(a ^ b); }, "xor");
    check(x + y, wrapped_add<T>, "operator+");
    check(x % y, remainder<T>, "operator%");
}

TEST(Ufuncs, IntegerArithmeticWrapsAndDividesAsNumPy) {
    KILN_REQUIRE_DEVICE();
    expect_integer_arithmetic<std::int8_t>();
    expect_integer_arithmetic<std::int16_t>();
    expect_integer_arithmetic<std::int32_t>();
    expect_integer_arithmetic<std::int64_t>();
    expect_integer_arithmetic<std::uint8_t>();
    expect_integer_arithmetic<std::uint16_t>();
    expect_integer_arithmetic<std::uint32_t>();
    expect_integer_arithmetic<std::uint64_t>();
}

TEST(Ufuncs, PowersAndShiftsOfIntegers) {
    KILN_REQUIRE_DEVICE();
    const ndarray base = kiln::array(std::vector<std::int32_t>{2, -3, 1, -1, 0, 7, 2});
    const ndarray exponent = kiln::array(std::vector<std::int32_t>{10, 3, -5, -3, 0, 12, 31});
    EXPECT_EQ(kiln::power(base, exponent).get<std::int32_t>(),
              (std::vector<std::int32_t>{1024, -27, 1, -1, 1, 956385313,  // 7^12 mod 2^32
                                         std::numeric_limits<std::int32_t>::min()}));
    const ndarray bits = kiln::array(std::vector<std::int8_t>{1, -128, 64, -1, 5});
    const ndarray by = kiln::array(std::vector<std::int8_t>{3, 1, 8, 100, -1});
    EXPECT_EQ(kiln::left_shift(bits, by).get<std::int8_t>(),
              (std::vector<std::int8_t>{8, 0, 0, 0, 0}));
    EXPECT_EQ(kiln::right_shift(bits, by).get<std::int8_t>(),
              (std::vector<std::int8_t>{0, -64, 0, -1, 0}));
}

TEST(Ufuncs, FloorDivisionAndRemainderOfFloatsTakeTheDivisorsSign) {
    KILN_REQUIRE_DEVICE();
    const double inf = std::numeric_limits<double>::infinity();
    const ndarray a = kiln::array(std::vector<double>{7, -7, 7, -7, 7.5, 0.0, 1.0, 5.0});
    const ndarray b = kiln::array(std::vector<double>{2, 2, -2, -2, 2, -3, 0.0, inf});
    // Python: 7 // 2 = 3, -7 // 2 = -4, 7 // -2 = -4, -7 // -2 = 3, 7.5 // 2 = 3, 0 // -3 = -0.
    const std::vector<double> quotient = kiln::floor_divide(a, b).get<double>();
    const std::vector<double> expected_quotient = {3, -4, -4, 3, 3, -0.0, inf, 0};
    for (std::size_t i = 0; i < quotient.size(); ++i) {
        EXPECT_EQ(quotient[i], expected_quotient[i]) << i;
        EXPECT_EQ(std::signbit(quotient[i]), std::signbit(expected_quotient[i])) << i;
    }
    const std::vector<double> rest = kiln::remainder(a, b).get<double>();
    const std::vector<double> expected_rest = {1, 1, -1, -1, 1.5, -0.0};
    for (std::size_t i = 0; i < expected_rest.size(); ++i) {
        EXPECT_EQ(rest[i], expected_rest[i]) << i;
        EXPECT_EQ(std::signbit(rest[i]), std::signbit(expected_rest[i])) << i;
    }
    EXPECT_TRUE(std::isnan(rest[6])) << "x % 0 is NaN for floats";
}

TEST(Ufuncs, FloatArithmeticComparisonsAndNaN) {
    KILN_REQUIRE_DEVICE();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> xs = {1.5F, -2.0F, nan, 0.0F, 3.0F};
    const std::vector<float> ys = {0.5F, nan, 1.0F, -0.0F, 3.0F};
    const ndarray x = kiln::array(xs);
    const ndarray y = kiln::array(ys);
    const auto max = kiln::maximum(x, y).get<float>();
    const auto fmax = kiln::fmax(x, y).get<float>();
    const auto quotient = (x / y).get<float>();
    const auto less = kiln::less(x, y).get<bool>();
    const auto equal = (x == y).get<bool>();
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const bool any_nan = std::isnan(xs[i]) || std::isnan(ys[i]);
        EXPECT_EQ(std::isnan(max[i]), any_nan) << "maximum propagates NaN, at " << i;
        if (!any_nan) {
            EXPECT_EQ(max[i], std::max(xs[i], ys[i])) << i;
        }
        const float want = xs[i] / ys[i];
        EXPECT_TRUE(quotient[i] == want || (std::isnan(quotient[i]) && std::isnan(want))) << i;
        EXPECT_EQ(fmax[i], std::isnan(xs[i]) ? ys[i] : (std::isnan(ys[i]) ? xs[i] : max[i])) << i;
        EXPECT_EQ(less[i], xs[i] < ys[i]) << i;
        EXPECT_EQ(equal[i], xs[i] == ys[i]) << i;
    }
    const auto not_a_number = kiln::isnan(x).get<bool>();
    EXPECT_EQ(not_a_number, (std::vector<bool>{false, false, true, false, false}));
    const ndarray special = kiln::array(std::vector<double>{1.0, -INFINITY, NAN, INFINITY});
    EXPECT_EQ(kiln::isinf(special).get<bool>(), (std::vector<bool>{false, true, false, true}));
    EXPECT_EQ(kiln::isfinite(special).get<bool>(), (std::vector<bool>{true, false, false, false}));
}

template <class T>
void expect_math(double tolerance) {
    SCOPED_TRACE(std::string(kiln::name(kiln::dtype_of<T>)));
    const std::vector<T> values = {T(0.25), T(0.5), T(0.75), T(0.9), T(1.5), T(3.0)};
    const ndarray x = kiln::array(values);
    const auto check = [&](const ndarray& got, double (*reference)(double), const char* what) {
        SCOPED_TRACE(what);
        ASSERT_EQ(got.dtype(), kiln::dtype_of<T>);
        const std::vector<T> out = got.get<T>();
        for (std::size_t i = 0; i < values.size(); ++i) {
            const double want = reference(static_cast<double>(values[i]));
            EXPECT_NEAR(static_cast<double>(out[i]), want, tolerance * std::abs(want)) << values[i];
        }
    };
    check(
        kiln::exp(x), [](double v) { return std::exp(v); }, "exp");
    check(
        kiln::exp2(x), [](double v) { return std::exp2(v); }, "exp2");
    check(
        kiln::expm1(x), [](double v) { return std::expm1(v); }, "expm1");
    check(
        kiln::log(x), [](double v) { return std::log(v); }, "log");
    check(
        kiln::log2(x), [](double v) { return std::log2(v); }, "log2");
    check(
        kiln::log10(x), [](double v) { return std::log10(v); }, "log10");
    check(
        kiln::log1p(x), [](double v) { return std::log1p(v); }, "log1p");
    check(
        kiln::sqrt(x), [](double v) { return std::sqrt(v); }, "sqrt");
    check(
        kiln::cbrt(x), [](double v) { return std::cbrt(v); }, "cbrt");
    check(
        kiln::sin(x), [](double v) { return std::sin(v); }, "sin");
    check(
        kiln::cos(x), [](double v) { return std::cos(v); }, "cos");
    check(
        kiln::tan(x), [](double v) { return std::tan(v); }, "tan");
    check(
        kiln::arcsin(x * T(0.25)), [](double v) { return std::asin(v * 0.25); }, "arcsin");
    check(
        kiln::arccos(x * T(0.25)), [](double v) { return std::acos(v * 0.25); }, "arccos");
    check(
        kiln::arctan(x), [](double v) { return std::atan(v); }, "arctan");
    check(
        kiln::sinh(x), [](double v) { return std::sinh(v); }, "sinh");
    check(
        kiln::cosh(x), [](double v) { return std::cosh(v); }, "cosh");
    check(
        kiln::tanh(x), [](double v) { return std::tanh(v); }, "tanh");
    check(
        kiln::arcsinh(x), [](double v) { return std::asinh(v); }, "arcsinh");
    check(
        kiln::arccosh(x + T(1)), [](double v) { return std::acosh(v + 1); }, "arccosh");
    check(
        kiln::arctanh(x * T(0.25)), [](double v) { return std::atanh(v * 0.25); }, "arctanh");
    check(
        kiln::floor(x), [](double v) { return std::floor(v); }, "floor");
    check(
        kiln::ceil(x), [](double v) { return std::ceil(v); }, "ceil");
    check(
        kiln::trunc(-x), [](double v) { return std::trunc(-v); }, "trunc");
    check(
        kiln::rint(x), [](double v) { return std::nearbyint(v); }, "rint");
    check(
        kiln::square(x), [](double v) { return v * v; }, "square");
    check(
        kiln::reciprocal(x), [](double v) { return 1 / v; }, "reciprocal");
    check(
        kiln::absolute(-x), [](double v) { return v; }, "absolute");
    check(
        kiln::power(x, T(2.5)), [](double v) { return std::pow(v, 2.5); }, "power");
}

TEST(Ufuncs, MathFunctionsOfFloatsMatchTheHost) {
    KILN_REQUIRE_DEVICE();
    expect_math<float>(1e-6);
    expect_math<double>(1e-14);
}

TEST(Ufuncs, Float16ComputesInFloatAndRounds) {
    KILN_REQUIRE_DEVICE();
    const std::vector<kiln::half> xs = {kiln::half(1.0F), kiln::half(0.1F), kiln::half(1000.0F)};
    const std::vector<kiln::half> ys = {kiln::half(2.0F), kiln::half(0.2F), kiln::half(65000.0F)};
    const ndarray sum = kiln::add(kiln::array(xs), kiln::array(ys));
    ASSERT_EQ(sum.dtype(), kiln::float16);
    const auto got = sum.get<kiln::half>();
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const kiln::half want(static_cast<float>(xs[i]) + static_cast<float>(ys[i]));
        EXPECT_EQ(static_cast<float>(got[i]), static_cast<float>(want)) << i;
    }
    EXPECT_TRUE(std::isinf(static_cast<float>(got[2])))
        << "1000 + 64992 rounds past 65504 to infinity";
    // exp of int8 computes in float16, as NumPy's does.
    const ndarray e = kiln::exp(kiln::array(std::vector<std::int8_t>{0, 1, 2}));
    ASSERT_EQ(e.dtype(), kiln::float16);
    EXPECT_EQ(static_cast<float>(e.get<kiln::half>()[1]), static_cast<float>(kiln::half(2.71828F)));
}

TEST(Ufuncs, ComplexArithmeticAndFunctions) {
    KILN_REQUIRE_DEVICE();
    using C = std::complex<double>;
    const std::vector<C> xs = {{1.5, -2.0}, {0.25, 0.5}, {-3.0, 0.0}};
    const std::vector<C> ys = {{0.5, 1.0}, {-1.0, 2.0}, {2.0, -0.5}};
    const ndarray x = kiln::array(xs);
    const ndarray y = kiln::array(ys);
    const auto near = [](C got, C want) { return std::abs(got - want) <= 1e-14 * std::abs(want); };
    const auto product = (x * y).get<C>();
    const auto quotient = (x / y).get<C>();
    const auto root = kiln::sqrt(x).get<C>();
    const auto magnitude = kiln::absolute(x);
    ASSERT_EQ(magnitude.dtype(), kiln::float64);
    const auto magnitudes = magnitude.get<double>();
    const auto less = kiln::less(x, y).get<bool>();
    for (std::size_t i = 0; i < xs.size(); ++i) {
        EXPECT_TRUE(near(product[i], xs[i] * ys[i])) << i;
        EXPECT_TRUE(near(quotient[i], xs[i] / ys[i])) << i;
        EXPECT_TRUE(near(root[i], std::sqrt(xs[i]))) << i;
        EXPECT_NEAR(magnitudes[i], std::abs(xs[i]), 1e-14 * std::abs(xs[i])) << i;
        const bool lexicographic = xs[i].real() < ys[i].real() ||
                                   (xs[i].real() == ys[i].real() && xs[i].imag() < ys[i].imag());
        EXPECT_EQ(less[i], lexicographic) << i;
    }
    // A complex scalar with a float32 array gives complex64 (NEP 50).
    const ndarray shifted = kiln::array(std::vector<float>{1.0F, 2.0F}) + C(0.0, 1.0);
    EXPECT_EQ(shifted.dtype(), kiln::complex64);
    EXPECT_EQ(shifted.get<std::complex<float>>()[1], std::complex<float>(2.0F, 1.0F));
}

TEST(Ufuncs, WeakScalarsKeepTheArraysDtype) {
    KILN_REQUIRE_DEVICE();
    const ndarray f = kiln::array(std::vector<float>{1.0F, 2.0F});
    EXPECT_EQ((f * 2.0).dtype(), kiln::float32);
    EXPECT_EQ((2 - f).get<float>(), (std::vector<float>{1.0F, 0.0F}));
    const ndarray small = kiln::array(std::vector<std::int8_t>{100, -100});
    EXPECT_EQ((small + 100).get<std::int8_t>(), (std::vector<std::int8_t>{-56, 0}));
    try {
        (void)(small + 300);
        ADD_FAILURE() << "expected kiln::TypeError";
    } catch (const kiln::TypeError& e) {
        EXPECT_NE(std::string(e.what()).find("kiln: add: argument 2: the scalar cannot be "
                                             "represented in int8"),
                  std::string::npos)
            << e.what();
    }
    const ndarray i = kiln::array(std::vector<std::int32_t>{1, 7});
    EXPECT_EQ((i / 2).dtype(), kiln::float64);
    EXPECT_EQ((i / 2).get<double>(), (std::vector<double>{0.5, 3.5}));
    EXPECT_EQ((i + 2.5).dtype(), kiln::float64);
    EXPECT_EQ(kiln::add(kiln::array(std::vector<std::uint8_t>{200}),
                        kiln::array(std::vector<std::int8_t>{-1}))
                  .get<std::int16_t>(),
              (std::vector<std::int16_t>{199}));
}

// A scalar is an argument of the routine's kernel, not part of its source: a new value compiles
// nothing and reads nothing from the disk cache. Under lazy fusion (the default) that kernel is
// the deferred expression's; the suite's lazy_off run (KILN_LAZY=0) checks the eager routine's.
TEST(Ufuncs, ANewScalarValueReusesTheCompiledKernel) {
    KILN_REQUIRE_DEVICE();
    const ndarray f = kiln::array(std::vector<float>{1.0F, -2.0F, 4.0F});
    (void)(f * 2.0).get<float>();
    const auto before = kiln::compile_cache_statistics();
    for (const double a : {3.0, -0.5, 1e3}) {
        const auto got = (f * a).get<float>();
        EXPECT_EQ(got, (std::vector<float>{static_cast<float>(a), static_cast<float>(-2.0 * a),
                                           static_cast<float>(4.0 * a)}))
            << a;
    }
    const auto after = kiln::compile_cache_statistics();
    EXPECT_EQ(after.compiles, before.compiles);
    EXPECT_EQ(after.disk_hits, before.disk_hits);
}

TEST(Ufuncs, OutDtypeAndInPlaceOperators) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = kiln::array(std::vector<std::int32_t>{1, 2, 3});
    ndarray out = kiln::zeros({3}, kiln::float64);
    const ndarray written = kiln::add(a, a, {.out = out});
    EXPECT_EQ(written.data(), out.data());
    EXPECT_EQ(out.get<double>(), (std::vector<double>{2, 4, 6}));
    EXPECT_EQ(kiln::multiply(a, 3, {.dtype = kiln::float32}).get<float>(),
              (std::vector<float>{3, 6, 9}));
    ndarray b = kiln::array(std::vector<std::int32_t>{5, 6, 7});
    b += a;
    b *= 2;
    EXPECT_EQ(b.get<std::int32_t>(), (std::vector<std::int32_t>{12, 16, 20}));
    EXPECT_THROW(b += 1.5, kiln::TypeError) << "float64 into int32 is not 'same_kind'";
    EXPECT_EQ((-a).get<std::int32_t>(), (std::vector<std::int32_t>{-1, -2, -3}));
    EXPECT_EQ((~a).get<std::int32_t>(), (std::vector<std::int32_t>{-2, -3, -4}));
    EXPECT_EQ((a >= 2).get<bool>(), (std::vector<bool>{false, true, true}));

    ndarray wrong_shape = kiln::zeros({4}, kiln::int32);
    try {
        (void)kiln::add(a, a, {.out = wrong_shape});
        ADD_FAILURE() << "expected kiln::ShapeError";
    } catch (const kiln::ShapeError& e) {
        EXPECT_NE(std::string(e.what()).find("kiln: add: out has shape (4,); expected the "
                                             "broadcast shape (3,)"),
                  std::string::npos)
            << e.what();
    }
    // The ufunc's name opens the message once, then the broadcast's own words.
    kiln::test::expect_error<kiln::ShapeError>(
        [&] {
            (void)kiln::add(a, kiln::array(std::vector<std::int32_t>{1, 2}));
        },
        "kiln: add: operands could not be broadcast together with shapes (3,) (2,)");
}

TEST(Ufuncs, BoolsZeroSizeNonContiguousAndScalars) {
    KILN_REQUIRE_DEVICE();
    const ndarray t = kiln::array(std::vector<bool>{true, true, false, false});
    const ndarray u = kiln::array(std::vector<bool>{true, false, true, false});
    EXPECT_EQ(kiln::add(t, u).get<bool>(), (std::vector<bool>{true, true, true, false}));
    EXPECT_EQ(kiln::multiply(t, u).get<bool>(), (std::vector<bool>{true, false, false, false}));
    EXPECT_EQ(kiln::logical_xor(t, u).get<bool>(), (std::vector<bool>{false, true, true, false}));
    EXPECT_EQ((t + 1).dtype(), kiln::int64) << "a bool array and an int scalar give int64";

    const ndarray empty = kiln::zeros({0, 3}, kiln::float32);
    EXPECT_EQ(kiln::add(empty, 1.0F).shape(), (kiln::Shape{0, 3}));

    const ndarray m = kiln::array(std::vector<double>{1, 2, 3, 4, 5, 6}, kiln::Shape{2, 3});
    EXPECT_EQ(kiln::subtract(m.transpose(), 1.0).get<double>(),
              (std::vector<double>{0, 3, 1, 4, 2, 5}));

    const ndarray zero_d = kiln::add(2, 3);
    EXPECT_EQ(zero_d.ndim(), 0);
    EXPECT_EQ(zero_d.get<std::int32_t>(), (std::vector<std::int32_t>{5}));
}

TEST(Ufuncs, ClipWhereAndComplexParts) {
    KILN_REQUIRE_DEVICE();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const ndarray x = kiln::array(std::vector<double>{-3, 0.5, 7, nan});
    const auto clipped = kiln::clip(x, 0.0, 1.0).get<double>();
    EXPECT_EQ(clipped[0], 0.0);
    EXPECT_EQ(clipped[1], 0.5);
    EXPECT_EQ(clipped[2], 1.0);
    EXPECT_TRUE(std::isnan(clipped[3])) << "NaN propagates, as numpy.clip's";
    const ndarray i = kiln::array(std::vector<std::int16_t>{-300, 5, 300});
    const ndarray lows = kiln::array(std::vector<std::int16_t>{-100, 10, 0});
    EXPECT_EQ(kiln::clip(i, lows, 200).get<std::int16_t>(),
              (std::vector<std::int16_t>{-100, 10, 200}));

    // The condition broadcasts against x and y; a weak scalar takes x's dtype.
    const ndarray condition = kiln::array(std::vector<bool>{true, false}, Shape{2, 1});
    const ndarray values = kiln::array(std::vector<float>{1, 2, 3});
    const ndarray chosen = kiln::where(condition, values, -1.0);
    EXPECT_EQ(chosen.dtype(), kiln::float32);
    EXPECT_EQ(chosen.shape(), (Shape{2, 3}));
    EXPECT_EQ(chosen.get<float>(), (std::vector<float>{1, 2, 3, -1, -1, -1}));
    EXPECT_EQ(kiln::where(kiln::array(std::vector<std::int32_t>{0, 2}),
                          kiln::array(std::vector<std::int8_t>{1, 1}),
                          kiln::array(std::vector<double>{0.5, 0.5}))
                  .get<double>(),
              (std::vector<double>{0.5, 1.0}));

    using C = std::complex<float>;
    const ndarray z = kiln::array(std::vector<C>{{3, -4}, {-1, 0}});
    const ndarray re = kiln::real(z);
    ASSERT_EQ(re.dtype(), kiln::float32);
    EXPECT_EQ(re.get<float>(), (std::vector<float>{3, -1}));
    EXPECT_EQ(kiln::imag(z).get<float>(), (std::vector<float>{-4, 0}));
    EXPECT_EQ(kiln::conj(z).get<C>(), (std::vector<C>{{3, 4}, {-1, -0.0F}}));
    const auto angles = kiln::angle(z).get<float>();
    EXPECT_NEAR(angles[0], std::atan2(-4.0F, 3.0F), 1e-6);
    EXPECT_NEAR(angles[1], std::numbers::pi_v<float>, 1e-6);
    const ndarray reals = kiln::array(std::vector<double>{2, -2});
    EXPECT_EQ(kiln::imag(reals).get<double>(), (std::vector<double>{0, 0}));
    EXPECT_EQ(kiln::angle(reals).get<double>(), (std::vector<double>{0, std::numbers::pi}));
}

}  // namespace
