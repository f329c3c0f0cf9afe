// NumPy's own ufunc tests for the routines kiln has, translated case by case from
// numpy/_core/tests/test_umath.py (each test names its source class and test): division, floor
// division and remainder (divmod as floor_divide with remainder, as the suite's own
// floor_divide_and_remainder helper does), comparisons, and NaN and infinity in maximum, minimum,
// fmax, fmin and their reductions (max, min, nanmax, nanmin); and CuPy's comparison operators
// with scalars. NumPy's parametrised dtypes are sampled, since each dtype compiles its own
// kernels.
#include "tests/support/backend_under_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace {

using kiln::DType;
using kiln::ndarray;

template <class T>
ndarray array(const std::vector<T>& values) {
    return kiln::array(values);
}

template <class T>
T one_value(const ndarray& a) {
    return a.get<T>().at(0);
}

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

// Python's floor division and modulo of integers (the suite's references), with NumPy's answers
// for a zero divisor (0) and for min // -1 (min, wrapped).
template <class T>
T floor_div(T n, T d) {
    if (d == 0) {
        return 0;
    }
    if constexpr (std::is_signed_v<T>) {
        if (n == std::numeric_limits<T>::min() && d == -1) {
            return n;
        }
        const T q = static_cast<T>(n / d);
        return (n % d != 0 && ((n < 0) != (d < 0))) ? static_cast<T>(q - 1) : q;
    } else {
        return static_cast<T>(n / d);
    }
}

TEST(NumpyUmath, DivisionOfIntegersFollowsPython) {
    KILN_REQUIRE_DEVICE();
    // TestDivision.test_division_int.
    const ndarray x = array(std::vector<std::int64_t>{5, 10, 90, 100, -5, -10, -90, -100, -120});
    const std::vector<double> quotients = {0.05, 0.1, 0.9, 1, -0.05, -0.1, -0.9, -1, -1.2};
    const auto divided = (x / 100).get<double>();
    for (std::size_t i = 0; i < quotients.size(); ++i) {
        EXPECT_DOUBLE_EQ(divided[i], quotients[i]) << i;
    }
    EXPECT_EQ(kiln::floor_divide(x, 100).get<std::int64_t>(),
              (std::vector<std::int64_t>{0, 0, 0, 1, -1, -1, -1, -1, -2}));
    EXPECT_EQ((x % 100).get<std::int64_t>(),
              (std::vector<std::int64_t>{5, 10, 90, 0, 95, 90, 10, 0, 80}));
}

// TestDivision.test_division_int_boundary for one dtype: 519 dividends near the top (and, for
// signed dtypes, the bottom) of the range, by array divisors and by scalar divisors.
template <class T>
void expect_floor_division_at_the_boundaries() {
    using limits = std::numeric_limits<T>;
    constexpr std::int64_t lsize = 512 + 7;
    std::vector<T> top;
    std::vector<T> bottom;
    std::vector<T> up;
    std::vector<T> around_zero;
    for (std::int64_t i = 0; i < lsize; ++i) {
        top.push_back(static_cast<T>(static_cast<std::int64_t>(limits::max()) - lsize + i));
        bottom.push_back(static_cast<T>(static_cast<std::int64_t>(limits::min()) + i));
        up.push_back(static_cast<T>(i));
        around_zero.push_back(static_cast<T>(lsize / -2 - 1 + i));  // Python's 519 // -2 is -260
    }
    const T neg = limits::min() < 0 ? static_cast<T>(-1) : T{1};
    std::vector<std::int64_t> top_divisors(15);
    std::iota(top_divisors.begin(), top_divisors.end(), 0);
    for (const auto d :
         {std::int64_t{1}, std::int64_t{3}, std::int64_t{9}, std::int64_t{13},
          static_cast<std::int64_t>(neg), static_cast<std::int64_t>(limits::min()) + 1,
          static_cast<std::int64_t>(limits::min()) / 2,
          static_cast<std::int64_t>(limits::max() / 3),
          static_cast<std::int64_t>(limits::max() / 4)}) {
        top_divisors.push_back(d);
    }
    std::vector<std::int64_t> bottom_divisors;
    for (std::int64_t i = 0; i < 15; ++i) {
        bottom_divisors.push_back(static_cast<std::int64_t>(limits::min()) + i);
    }
    const auto check = [](const std::vector<T>& a, const std::vector<T>& b,
                          const std::vector<std::int64_t>& divisors) {
        std::vector<T> expected(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            expected[i] = floor_div<T>(a[i], b[i]);
        }
        EXPECT_EQ(kiln::floor_divide(array(a), array(b)).template get<T>(), expected);
        for (const std::int64_t divisor : divisors) {
            const T d = static_cast<T>(divisor);
            for (std::size_t i = 0; i < a.size(); ++i) {
                expected[i] = floor_div<T>(a[i], d);
            }
            EXPECT_EQ(kiln::floor_divide(array(a), divisor).template get<T>(), expected) << divisor;
        }
    };
    check(top, up, top_divisors);
    if constexpr (std::is_signed_v<T>) {
        check(bottom, around_zero, bottom_divisors);
    }
}

TEST(NumpyUmath, FloorDivisionAtTheIntegerBoundaries) {
    KILN_REQUIRE_DEVICE();
    // TestDivision.test_division_int_boundary, for int32 and uint32 of its dtypes.
    expect_floor_division_at_the_boundaries<std::int32_t>();
    expect_floor_division_at_the_boundaries<std::uint32_t>();
}

TEST(NumpyUmath, ComplexDivision) {
    KILN_REQUIRE_DEVICE();
    using C = std::complex<double>;
    // TestDivision.test_division_complex: x**2 / x is x, also near overflow and underflow.
    const std::vector<C> values = {{1, 1}, {1, 0.5}, {1, 2}};
    const ndarray x = array(values);
    const auto back = ((x * x) / x).get<C>();
    for (std::size_t i = 0; i < values.size(); ++i) {
        EXPECT_NEAR(std::abs(back[i] - values[i]), 0, 1e-7) << i;
    }
    const ndarray extreme = array(std::vector<C>{{1e110, 0}, {1e-110, 0}});
    const auto ratio = (((extreme * extreme) / extreme) / extreme).get<C>();
    for (const C r : ratio) {
        EXPECT_NEAR(std::abs(r - C(1, 0)), 0, 1e-7);
    }

    // TestDivision.test_zero_division_complex: a non-zero numerator over 0 is infinite, 0 / 0
    // NaN.
    const ndarray zero = array(std::vector<C>{{0, 0}});
    const auto is_inf = [](C z) { return std::isinf(z.real()) || std::isinf(z.imag()); };
    EXPECT_TRUE(is_inf(one_value<C>(1.0 / zero)));
    EXPECT_TRUE(is_inf(one_value<C>(C(inf, nan) / zero)));
    EXPECT_TRUE(is_inf(one_value<C>(C(nan, inf) / zero)));
    EXPECT_TRUE(is_inf(one_value<C>(C(inf, inf) / zero)));
    const C zero_over_zero = one_value<C>(0.0 / zero);
    EXPECT_TRUE(std::isnan(zero_over_zero.real()) || std::isnan(zero_over_zero.imag()));

    // TestDivision.test_floor_division_complex: floor_divide and remainder take no complex.
    EXPECT_THROW((void)kiln::floor_divide(x, 7), kiln::TypeError);
    EXPECT_THROW((void)kiln::remainder(x, 7), kiln::TypeError);
}

TEST(NumpyUmath, FloorDivisionOfFloatsCornerCases) {
    KILN_REQUIRE_DEVICE();
    // TestDivision.test_floor_division_signed_zero: the sign of zero survives // 1.
    const ndarray zeros = kiln::zeros({10});
    for (const double v : kiln::floor_divide(zeros, 1).get<double>()) {
        EXPECT_FALSE(std::signbit(v));
    }
    for (const double v : kiln::floor_divide(-zeros, 1).get<double>()) {
        EXPECT_TRUE(std::signbit(v));
    }
    // TestDivision.test_floor_division_corner_cases (float32 and float64 of its dtypes).
    for (const DType dtype : {DType::float32, DType::float64}) {
        const ndarray a = array(std::vector<double>{nan, 1, nan, 1}).astype(dtype);
        const ndarray b = array(std::vector<double>{1, nan, 0, 0}).astype(dtype);
        const auto q = kiln::floor_divide(a, b).astype(DType::float64).get<double>();
        EXPECT_TRUE(std::isnan(q[0]));
        EXPECT_TRUE(std::isnan(q[1]));
        EXPECT_TRUE(std::isnan(q[2]));
        EXPECT_EQ(q[3], inf);  // 1 // 0
        const ndarray ones = kiln::ones({10}, dtype);
        for (const double v : kiln::floor_divide(ones, kiln::zeros({10}, dtype))
                                  .astype(DType::float64)
                                  .get<double>()) {
            EXPECT_EQ(v, inf);
        }
    }
}

TEST(NumpyUmath, RemainderBasics) {
    KILN_REQUIRE_DEVICE();
    // TestRemainder.test_remainder_basic: div * b + rem == a, and rem has b's sign and is smaller
    // than b; three of its dtype pairs (loops int8, float64 and float32), each sign.
    const std::vector<std::pair<DType, DType>> pairs = {{DType::int8, DType::int8},
                                                        {DType::float32, DType::float64},
                                                        {DType::int16, DType::float16}};
    for (const auto& [dt1, dt2] : pairs) {
        for (const int sg1 : {1, -1}) {
            for (const int sg2 : {1, -1}) {
                const ndarray a = kiln::full({}, sg1 * 71, dt1);
                const ndarray b = kiln::full({}, sg2 * 19, dt2);
                const double div =
                    one_value<double>(kiln::floor_divide(a, b).astype(DType::float64));
                const double rem = one_value<double>(kiln::remainder(a, b).astype(DType::float64));
                const double bb = sg2 * 19.0;
                EXPECT_EQ(div * bb + rem, sg1 * 71.0);
                if (sg2 == -1) {
                    EXPECT_TRUE(bb < rem && rem <= 0) << rem;
                } else {
                    EXPECT_TRUE(bb > rem && rem >= 0) << rem;
                }
            }
        }
    }
}

TEST(NumpyUmath, FloatRemainderIsExactForSmallIntegers) {
    KILN_REQUIRE_DEVICE();
    // TestRemainder.test_float_remainder_exact (float32 and float64 of its dtypes): Python's
    // divmod of every pair of -127..127 (divisor non-zero), with the sign of zero checked.
    std::vector<double> a;
    std::vector<double> b;
    std::vector<double> quotients;
    std::vector<double> remainders;
    for (int n = -127; n <= 127; ++n) {
        for (int d = -127; d <= 127; ++d) {
            if (d == 0) {
                continue;
            }
            a.push_back(n);
            b.push_back(d);
            const int q = floor_div<int>(n, d);
            const int r = n - q * d;
            quotients.push_back(q == 0 && ((d < 0) != (n < 0)) ? -0.0 : q);
            remainders.push_back(r == 0 && d < 0 ? -0.0 : r);
        }
    }
    for (const DType dtype : {DType::float32, DType::float64}) {
        const ndarray fa = array(a).astype(dtype);
        const ndarray fb = array(b).astype(dtype);
        const auto div = kiln::floor_divide(fa, fb).astype(DType::float64).get<double>();
        const auto rem = kiln::remainder(fa, fb).astype(DType::float64).get<double>();
        for (std::size_t i = 0; i < a.size(); ++i) {
            ASSERT_EQ(div[i], quotients[i]) << a[i] << " // " << b[i];
            ASSERT_EQ(std::signbit(div[i]), std::signbit(quotients[i])) << a[i] << " // " << b[i];
            ASSERT_EQ(rem[i], remainders[i]) << a[i] << " % " << b[i];
            ASSERT_EQ(std::signbit(rem[i]), std::signbit(remainders[i])) << a[i] << " % " << b[i];
        }
    }
}

TEST(NumpyUmath, FloatRemainderRoundoff) {
    KILN_REQUIRE_DEVICE();
    // TestRemainder.test_float_remainder_roundoff (gh-6127), float32 and float64 pairs, each sign.
    for (const DType dt1 : {DType::float32, DType::float64}) {
        for (const DType dt2 : {DType::float32, DType::float64}) {
            for (const double sg1 : {1.0, -1.0}) {
                for (const double sg2 : {1.0, -1.0}) {
                    const ndarray a = kiln::full({}, sg1 * 78 * 6e-8, dt1);
                    const ndarray b = kiln::full({}, sg2 * 6e-8, dt2);
                    const DType loop = kiln::promote_types(dt1, dt2);
                    const ndarray div = kiln::floor_divide(a, b);
                    const ndarray rem = kiln::remainder(a, b);
                    // div * b + rem == a, in the loop's precision.
                    const double back =
                        one_value<double>((div * b.astype(loop) + rem).astype(DType::float64));
                    EXPECT_EQ(back, one_value<double>(a.astype(loop).astype(DType::float64)));
                    const double r = one_value<double>(rem.astype(DType::float64));
                    const double bb = one_value<double>(b.astype(DType::float64));
                    if (sg2 < 0) {
                        EXPECT_TRUE(bb < r && r <= 0) << r;
                    } else {
                        EXPECT_TRUE(bb > r && r >= 0) << r;
                    }
                }
            }
        }
    }
}

TEST(NumpyUmath, FloatDivmodAndRemainderCornerCases) {
    KILN_REQUIRE_DEVICE();
    for (const DType dtype : {DType::float32, DType::float64}) {
        // TestRemainder.test_float_divmod_corner_cases: pairs (a, b) with their quotient.
        const std::vector<double> a = {1, 0, inf, inf, nan, 1, nan};
        const std::vector<double> b = {0, 0, inf, 0, 1, nan, 0};
        const std::vector<double> quotient = {inf, nan, nan, inf, nan, nan, nan};
        const ndarray fa = array(a).astype(dtype);
        const ndarray fb = array(b).astype(dtype);
        const auto div = kiln::floor_divide(fa, fb).astype(DType::float64).get<double>();
        const auto rem = kiln::remainder(fa, fb).astype(DType::float64).get<double>();
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (std::isnan(quotient[i])) {
                EXPECT_TRUE(std::isnan(div[i])) << a[i] << " // " << b[i] << " = " << div[i];
            } else {
                EXPECT_EQ(div[i], quotient[i]) << a[i] << " // " << b[i];
            }
            EXPECT_TRUE(std::isnan(rem[i])) << a[i] << " % " << b[i] << " = " << rem[i];
        }

        // TestRemainder.test_float_remainder_corner_cases: the remainder's magnitude for the
        // smallest negative number, and NaN from 1 % 0, inf % 1, inf % inf, inf % 0, 1 % nan,
        // nan % 0, nan % 1.
        const ndarray tiny =
            dtype == DType::float32
                ? array(std::vector<float>{-std::numeric_limits<float>::denorm_min()})
                : array(std::vector<double>{-std::numeric_limits<double>::denorm_min()});
        EXPECT_LE(one_value<double>(kiln::remainder(tiny, 1.0).astype(DType::float64)), 1.0);
        EXPECT_GE(one_value<double>(kiln::remainder(-tiny, -1.0).astype(DType::float64)), -1.0);
        const ndarray na = array(std::vector<double>{1, inf, inf, inf, 1, nan, nan}).astype(dtype);
        const ndarray nb = array(std::vector<double>{0, 1, inf, 0, nan, 0, 1}).astype(dtype);
        for (const double v : kiln::remainder(na, nb).astype(DType::float64).get<double>()) {
            EXPECT_TRUE(std::isnan(v)) << v;
        }
    }
}

TEST(NumpyUmath, IntegerDivisionOverflowAndDivisionByZero) {
    KILN_REQUIRE_DEVICE();
    // TestDivisionIntegerOverflowsAndDivideByZero.test_signed_division_overflow (int8 and int64
    // of its dtypes): min // -1 is min, min % -1 is 0.
    const ndarray i8 = array(std::vector<std::int8_t>{-128});
    EXPECT_EQ(one_value<std::int8_t>(kiln::floor_divide(i8, -1)), -128);
    EXPECT_EQ(one_value<std::int8_t>(kiln::remainder(i8, -1)), 0);
    const std::int64_t min64 = std::numeric_limits<std::int64_t>::min();
    const ndarray i64 = array(std::vector<std::int64_t>{min64});
    EXPECT_EQ(one_value<std::int64_t>(kiln::floor_divide(i64, -1)), min64);
    EXPECT_EQ(one_value<std::int64_t>(kiln::remainder(i64, -1)), 0);

    // test_divide_by_zero (int8, uint64 of its dtypes): 1 // 0 and 1 % 0 are 0.
    EXPECT_EQ(one_value<std::int8_t>(kiln::floor_divide(array(std::vector<std::int8_t>{1}), 0)), 0);
    const ndarray u64 = array(std::vector<std::uint64_t>{1});
    EXPECT_EQ(one_value<std::uint64_t>(kiln::floor_divide(u64, 0)), 0U);
    EXPECT_EQ(one_value<std::uint64_t>(kiln::remainder(u64, 0)), 0U);

    // test_overflows (dividend and divisor int8/int8 and int8/int16 of its pairs; arrays of 1,
    // 17 and 128 elements): min // -1 wraps to min when the divisor is no wider, and is -min in
    // the wider dtype otherwise; min % -1 is 0 either way.
    for (const std::int64_t n : {1, 17, 128}) {
        const ndarray mins = kiln::full({n}, -128, DType::int8);
        for (const DType divisor_dtype : {DType::int8, DType::int16}) {
            const ndarray divisor = kiln::full({1}, -1, divisor_dtype);
            const std::int64_t expected = divisor_dtype == DType::int8 ? -128 : 128;
            const auto q = kiln::floor_divide(mins, divisor).astype(DType::int64);
            EXPECT_EQ(q.get<std::int64_t>(), std::vector<std::int64_t>(n, expected));
            const auto r = kiln::remainder(mins, divisor).astype(DType::int64);
            EXPECT_EQ(r.get<std::int64_t>(), std::vector<std::int64_t>(n, 0));
        }
    }
}

TEST(NumpyUmath, ComparisonFunctions) {
    KILN_REQUIRE_DEVICE();
    // TestComparisons.test_comparison_functions (int16 of its dtypes): arrays of 1..9 against
    // each other and against the NumPy scalar 5 (a 0-d array) on either side.
    std::vector<std::int16_t> a(1000);
    std::vector<std::int16_t> b(1000);
    for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = static_cast<std::int16_t>(1 + (i * 7) % 9);
        b[i] = static_cast<std::int16_t>(1 + (i * 5 + 3) % 9);
    }
    const ndarray x = array(a);
    const ndarray y = array(b);
    const ndarray five = kiln::full({}, 5, DType::int16);
    using Comparison =
        ndarray (*)(const kiln::Argument&, const kiln::Argument&, const kiln::UfuncOptions&);
    const std::vector<std::pair<Comparison, bool (*)(int, int)>> comparisons = {
        {&kiln::less, [](int p, int q) { return p < q; }},
        {&kiln::less_equal, [](int p, int q) { return p <= q; }},
        {&kiln::greater, [](int p, int q) { return p > q; }},
        {&kiln::greater_equal, [](int p, int q) { return p >= q; }},
        {&kiln::equal, [](int p, int q) { return p == q; }},
        {&kiln::not_equal, [](int p, int q) { return p != q; }}};
    for (const auto& [np_comp, py_comp] : comparisons) {
        std::vector<bool> both(a.size());
        std::vector<bool> scalar_first(a.size());
        std::vector<bool> scalar_second(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            both[i] = py_comp(a[i], b[i]);
            scalar_first[i] = py_comp(5, b[i]);
            scalar_second[i] = py_comp(a[i], 5);
        }
        EXPECT_EQ(np_comp(x, y, {}).get<bool>(), both);
        EXPECT_EQ(np_comp(five, y, {}).get<bool>(), scalar_first);
        EXPECT_EQ(np_comp(x, five, {}).get<bool>(), scalar_second);
    }
}

TEST(NumpyUmath, CupyComparisonOperatorsWithScalars) {
    KILN_REQUIRE_DEVICE();
    // CuPy's tests/cupy_tests/logic_tests/test_comparison.py: TestComparisonOperator's four tests
    // (a NumPy int16 scalar, the Python 3.0, a NumPy float32 scalar and the Python 3 against
    // shaped_arange((2, 3))), for uint8 of its dtypes and the operators < and ==.
    const ndarray a = kiln::arange(std::int64_t{0}, 6, 1, DType::uint8).reshape({2, 3});
    const std::vector<bool> three_below = {false, false, false, false, true, true};
    const std::vector<bool> below_three = {true, true, true, false, false, false};
    const std::vector<bool> at_three = {false, false, false, true, false, false};
    const ndarray int16_three = kiln::full({}, 3, DType::int16);
    EXPECT_EQ((int16_three < a).get<bool>(), three_below);
    EXPECT_EQ((int16_three == a).get<bool>(), at_three);
    EXPECT_EQ((3.0 < a).get<bool>(), three_below);
    EXPECT_EQ((3.0 == a).get<bool>(), at_three);
    const ndarray float32_three = kiln::full({}, 3.0, DType::float32);
    EXPECT_EQ((a < float32_three).get<bool>(), below_three);
    EXPECT_EQ((a == float32_three).get<bool>(), at_three);
    EXPECT_EQ((a < 3).get<bool>(), below_three);
    EXPECT_EQ((a == 3).get<bool>(), at_three);
}

TEST(NumpyUmath, LargeIntegersCompareExactly) {
    KILN_REQUIRE_DEVICE();
    // TestComparisons.test_large_integer_direct_comparison: int64 against uint64 (they promote to
    // float64, where 2**60 + 1 is 2**60) compares exactly; dtypes "qQ" with every comparison and
    // both value orders, "Qq" with less.
    const std::int64_t small = std::int64_t{1} << 60;
    using Comparison =
        ndarray (*)(const kiln::Argument&, const kiln::Argument&, const kiln::UfuncOptions&);
    const std::vector<std::pair<Comparison, bool (*)(std::int64_t, std::int64_t)>> comparisons = {
        {&kiln::less, [](std::int64_t p, std::int64_t q) { return p < q; }},
        {&kiln::less_equal, [](std::int64_t p, std::int64_t q) { return p <= q; }},
        {&kiln::greater, [](std::int64_t p, std::int64_t q) { return p > q; }},
        {&kiln::greater_equal, [](std::int64_t p, std::int64_t q) { return p >= q; }},
        {&kiln::equal, [](std::int64_t p, std::int64_t q) { return p == q; }},
        {&kiln::not_equal, [](std::int64_t p, std::int64_t q) { return p != q; }}};
    for (const auto& [v1, v2] : {std::pair{small, small + 1}, std::pair{small + 1, small}}) {
        const ndarray a1 = array(std::vector<std::int64_t>{v1});
        const ndarray a2 = array(std::vector<std::uint64_t>{static_cast<std::uint64_t>(v2)});
        for (const auto& [np_comp, py_comp] : comparisons) {
            EXPECT_EQ(np_comp(a1, a2, {}).get<bool>()[0], py_comp(v1, v2)) << v1 << ", " << v2;
        }
        const ndarray b1 = array(std::vector<std::uint64_t>{static_cast<std::uint64_t>(v1)});
        const ndarray b2 = array(std::vector<std::int64_t>{v2});
        EXPECT_EQ((b1 < b2).get<bool>()[0], v1 < v2);
    }
    // Signs decide before values: -1 is below uint64's maximum, which float64 would round.
    const ndarray minus_one = array(std::vector<std::int64_t>{-1, 5});
    const ndarray top =
        array(std::vector<std::uint64_t>{std::numeric_limits<std::uint64_t>::max(), 5});
    EXPECT_EQ(kiln::less(minus_one, top).get<bool>(), (std::vector<bool>{true, false}));
    EXPECT_EQ(kiln::equal(minus_one, top).get<bool>(), (std::vector<bool>{false, true}));
    const ndarray out = kiln::zeros({2}, DType::int32);
    (void)kiln::less(minus_one, top, {.out = out});
    EXPECT_EQ(out.get<std::int32_t>(), (std::vector<std::int32_t>{1, 0}));
}

// The result of a ufunc on two float64 arrays, as doubles.
std::vector<double> of(ndarray (*ufunc)(const kiln::Argument&, const kiln::Argument&,
                                        const kiln::UfuncOptions&),
                       const std::vector<double>& x, const std::vector<double>& y) {
    return ufunc(array(x), array(y), {}).get<double>();
}

// Equal, with NaN equal to NaN (numpy.testing.assert_equal).
void expect_same(const std::vector<double>& actual, const std::vector<double>& expected) {
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
        if (std::isnan(expected[i])) {
            EXPECT_TRUE(std::isnan(actual[i])) << i << ": " << actual[i];
        } else {
            EXPECT_EQ(actual[i], expected[i]) << i;
        }
    }
}

TEST(NumpyUmath, MaximumMinimumFmaxFminWithNaN) {
    KILN_REQUIRE_DEVICE();
    // TestMaximum, TestMinimum, TestFmax, TestFmin: test_float_nans.
    const std::vector<double> arg1 = {0, nan, nan};
    const std::vector<double> arg2 = {nan, 0, nan};
    expect_same(of(&kiln::maximum, arg1, arg2), {nan, nan, nan});
    expect_same(of(&kiln::minimum, arg1, arg2), {nan, nan, nan});
    expect_same(of(&kiln::fmax, arg1, arg2), {0, 0, nan});
    expect_same(of(&kiln::fmin, arg1, arg2), {0, 0, nan});

    // TestMaximum.test_strided_array and TestMinimum.test_strided_array.
    const std::vector<double> v1 = {-4.0, 1.0, 10.0, 0.0, nan, -nan, inf, -inf};
    const std::vector<double> v2 = {-2.0, -1.0, nan, 1.0, 0.0, nan, 1.0, -3.0};
    expect_same(of(&kiln::maximum, v1, v2), {-2.0, 1.0, nan, 1.0, nan, nan, inf, -3.0});
    expect_same(of(&kiln::minimum, v1, v2), {-4.0, -1.0, nan, 0.0, nan, nan, 1.0, -inf});
    const ndarray arr1 = array(v1);
    const ndarray arr2 = array(v2);
    const auto every = [](std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                          std::int64_t step) {
        return std::vector<kiln::Index>{kiln::Slice{start, stop, step}};
    };
    expect_same(
        kiln::maximum(arr1.slice(every({}, {}, 2)), arr2.slice(every({}, {}, 2))).get<double>(),
        {-2.0, nan, nan, inf});
    expect_same(
        kiln::maximum(arr1.slice(every({}, 4, 1)), arr2.slice(every({}, {}, 2))).get<double>(),
        {-2.0, nan, 10.0, 1.0});
    expect_same(
        kiln::minimum(arr1.slice(every({}, 4, 1)), arr2.slice(every({}, {}, 2))).get<double>(),
        {-4.0, nan, 0.0, 0.0});
    expect_same(
        kiln::maximum(arr1.slice(every({}, {}, 3)), arr2.slice(every({}, 3, 1))).get<double>(),
        {-2.0, 0.0, nan});
    const ndarray out = kiln::ones({8});
    expect_same(kiln::maximum(arr1.slice(every({}, 6, 2)), arr2.slice(every({}, {}, 3)),
                              {.out = out.slice(every({}, {}, 3))})
                    .get<double>(),
                {-2.0, 10.0, nan});
    expect_same(out.get<double>(), {-2.0, 1.0, 1.0, 10.0, 1.0, 1.0, nan, 1.0});
    const ndarray out_min = kiln::ones({8});
    (void)kiln::minimum(arr1.slice(every({}, 6, 2)), arr2.slice(every({}, {}, 3)),
                        {.out = out_min.slice(every({}, {}, 3))});
    expect_same(out_min.get<double>(), {-4.0, 1.0, 1.0, 1.0, 1.0, 1.0, nan, 1.0});
}

TEST(NumpyUmath, MaximumMinimumFmaxFminPrecision) {
    KILN_REQUIRE_DEVICE();
    // test_precision of TestMaximum, TestMinimum, TestFmax and TestFmin (float64 of its dtypes):
    // the ufunc and its reduction (max, min, nanmax, nanmin).
    const double lo = std::numeric_limits<double>::lowest();
    const double hi = std::numeric_limits<double>::max();
    const double d1 = 0.1;
    const double d1_next = std::nextafter(d1, inf);
    using Ufunc =
        ndarray (*)(const kiln::Argument&, const kiln::Argument&, const kiln::UfuncOptions&);
    using Reduction = ndarray (*)(const ndarray&, const kiln::ReduceOptions&);
    struct Case {
        Ufunc ufunc;
        Reduction reduction;
        std::vector<std::array<double, 3>> cases;  // v1, v2, expected
    };
    const std::vector<Case> all = {
        {&kiln::maximum,
         &kiln::max,
         {{lo, -inf, lo}, {hi, -inf, hi}, {d1, d1_next, d1_next}, {hi, nan, nan}}},
        {&kiln::minimum,
         &kiln::min,
         {{lo, inf, lo}, {hi, inf, hi}, {d1, d1_next, d1}, {lo, nan, nan}}},
        {&kiln::fmax,
         &kiln::nanmax,
         {{lo, -inf, lo}, {hi, -inf, hi}, {d1, d1_next, d1_next}, {hi, nan, hi}}},
        {&kiln::fmin,
         &kiln::nanmin,
         {{lo, inf, lo}, {hi, inf, hi}, {d1, d1_next, d1}, {lo, nan, lo}}}};
    for (const Case& c : all) {
        for (const auto& [v1, v2, expected] : c.cases) {
            expect_same(c.ufunc(array(std::vector<double>{v1}), array(std::vector<double>{v2}), {})
                            .get<double>(),
                        {expected});
            expect_same(c.reduction(array(std::vector<double>{v1, v2}), {}).get<double>(),
                        {expected});
        }
    }
}

TEST(NumpyUmath, MaximumMinimumFmaxFminReductions) {
    KILN_REQUIRE_DEVICE();
    // test_reduce of TestMaximum, TestMinimum, TestFmax and TestFmin (int8, uint64, float32 and
    // float64 of its dtypes; complex is not taken by kiln's max and min): 0..10 in either order,
    // then with NaN at every even index (max and min give NaN; nanmax 9, nanmin 1).
    std::vector<double> seq1(11);
    std::iota(seq1.begin(), seq1.end(), 0.0);
    const std::vector<double> seq2(seq1.rbegin(), seq1.rend());
    for (const DType dtype : {DType::int8, DType::uint64, DType::float32, DType::float64}) {
        for (const auto& seq : {seq1, seq2}) {
            const ndarray a = array(seq).astype(dtype);
            EXPECT_EQ(one_value<double>(kiln::max(a).astype(DType::float64)), 10);
            EXPECT_EQ(one_value<double>(kiln::min(a).astype(DType::float64)), 0);
            if (kind(dtype) != 'f') {
                continue;
            }
            EXPECT_EQ(one_value<double>(kiln::nanmax(a).astype(DType::float64)), 10);
            EXPECT_EQ(one_value<double>(kiln::nanmin(a).astype(DType::float64)), 0);
            std::vector<double> holes = seq;
            for (std::size_t i = 0; i < holes.size(); i += 2) {
                holes[i] = nan;
            }
            const ndarray h = array(holes).astype(dtype);
            EXPECT_TRUE(std::isnan(one_value<double>(kiln::max(h).astype(DType::float64))));
            EXPECT_TRUE(std::isnan(one_value<double>(kiln::min(h).astype(DType::float64))));
            EXPECT_EQ(one_value<double>(kiln::nanmax(h).astype(DType::float64)), 9);
            EXPECT_EQ(one_value<double>(kiln::nanmin(h).astype(DType::float64)), 1);
        }
    }
}

}  // namespace
