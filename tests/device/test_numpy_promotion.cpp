// NumPy's own NEP 50 promotion tests, translated case by case from
// numpy/_core/tests/test_nep50_promotions.py (each test names its source), with the comparison
// cases of numpy/_core/tests/test_umath.py's TestComparisons that concern Python integers. A NumPy
// scalar or 0-d array is a strong kiln array here; a Python number is a C++ number (weak).
#include "tests/support/backend_under_test.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace {

using kiln::Argument;
using kiln::DType;
using kiln::ndarray;
using kiln::Scalar;

// A strong operand: an empty array of `dtype`, which result_type reads without a kernel.
Argument strong(DType dtype) {
    return kiln::empty({0}, dtype);
}

// numpy.result_type of `operands` in every order, which must all give `expected`.
void expect_in_every_order(const std::vector<Argument>& operands, DType expected) {
    std::vector<std::size_t> order(operands.size());
    std::iota(order.begin(), order.end(), 0);
    do {
        std::vector<Argument> permuted;
        for (const std::size_t i : order) {
            permuted.push_back(operands[i]);
        }
        ASSERT_EQ(kiln::result_type(permuted), expected) << "an order of " << operands.size();
    } while (std::next_permutation(order.begin(), order.end()));
}

// test_expected_promotion: hypothesis draws orders and optional extras; here every order of the
// required operands with each optional one, and of the required ones with all optional ones.
void expect_promotion(DType expected, const std::vector<Argument>& required,
                      const std::vector<Argument>& optional) {
    expect_in_every_order(required, expected);
    for (const Argument& extra : optional) {
        std::vector<Argument> operands = required;
        operands.push_back(extra);
        operands.push_back(extra);  // a repeated operand changes nothing
        expect_in_every_order(operands, expected);
    }
    std::vector<Argument> all = required;
    all.insert(all.end(), optional.begin(), optional.end());
    expect_in_every_order(all, expected);
}

TEST(NumpyPromotion, ExpectedPromotionInAnyOrder) {
    KILN_REQUIRE_DEVICE();
    using enum DType;
    // test_nep50_promotions.py: test_expected_promotion, its four parameter sets.
    expect_promotion(
        float32, {strong(float32)},
        {strong(float16), Scalar(0.0), strong(uint16), strong(int16), strong(int8), Scalar(0)});
    expect_promotion(
        complex64, {strong(float32), Scalar(std::complex<double>(0, 0))},
        {strong(float16), Scalar(0.0), strong(uint16), strong(int16), strong(int8), Scalar(0)});
    // A pairwise fold would give float64 here (int16, uint16 -> int32; int32, float16 -> float64).
    expect_promotion(float32, {strong(int16), strong(uint16), strong(float16)},
                     {strong(int8), strong(uint8), strong(float32), Scalar(0.0), Scalar(0)});
    expect_promotion(int32, {strong(int16), strong(uint16)},
                     {strong(int8), strong(uint8), Scalar(0), strong(bool_)});
}

TEST(NumpyPromotion, ManyOperandsFindOneCommonDtype) {
    KILN_REQUIRE_DEVICE();
    using enum DType;
    // From NumPy's PyArray_PromoteDTypeSequence (common_dtype.c): float16 leads and promotes each
    // operand, where a pairwise fold goes through int16 and gives float32.
    expect_in_every_order({strong(int8), strong(uint8), strong(float16)}, float16);
    expect_in_every_order({strong(int16), strong(uint16), strong(float32)}, float32);
    expect_in_every_order({strong(int16), strong(uint16), strong(complex64)}, complex64);
    expect_in_every_order({strong(int64), strong(uint64), strong(float16)}, float64);
    expect_in_every_order({strong(uint8), strong(int8), strong(uint16)}, int32);

    // concatenate and where take that dtype too; clip's three operands as well.
    const ndarray i8 = kiln::array(std::vector<std::int8_t>{-1, 2});
    const ndarray u8 = kiln::array(std::vector<std::uint8_t>{200});
    const ndarray f16 = kiln::zeros({1}, float16);
    EXPECT_EQ(kiln::concatenate({i8, u8, f16}).dtype(), float16);
    EXPECT_EQ(kiln::stack({f16, f16.astype(int8), f16.astype(uint8)}).dtype(), float16);
    const ndarray clipped = kiln::clip(i8, u8, f16.astype(float16));
    EXPECT_EQ(clipped.dtype(), float16);
}

TEST(NumpyPromotion, Nep50Examples) {
    KILN_REQUIRE_DEVICE();
    // test_nep50_promotions.py: test_nep50_examples (NumPy scalars are 0-d arrays here).
    const auto uint8_scalar = [](std::uint8_t v) {
        return kiln::array(std::vector<std::uint8_t>{v}).reshape({});
    };
    EXPECT_EQ((uint8_scalar(1) + 2).dtype(), DType::uint8);
    const ndarray int64_scalar = kiln::array(std::vector<std::int64_t>{1}).reshape({});
    EXPECT_EQ((kiln::array(std::vector<std::uint8_t>{1}) + int64_scalar).dtype(), DType::int64);
    const ndarray wrapped = uint8_scalar(100) + 200;  // NumPy warns of the overflow
    EXPECT_EQ(wrapped.dtype(), DType::uint8);
    EXPECT_EQ(wrapped.get<std::uint8_t>()[0], 44);
    const ndarray one_f32 = kiln::array(std::vector<float>{1});
    const ndarray huge = one_f32 + 3e100;
    EXPECT_EQ(huge.dtype(), DType::float32);
    EXPECT_TRUE(std::isinf(huge.get<float>()[0]));
    const ndarray point_one_f64 = kiln::array(std::vector<double>{0.1}).reshape({});
    const ndarray point_one_f32 = kiln::array(std::vector<float>{0.1F});
    EXPECT_FALSE((point_one_f32 == point_one_f64).get<bool>()[0]);
    EXPECT_EQ((point_one_f32 + point_one_f64).dtype(), DType::float64);
    EXPECT_EQ((one_f32 + int64_scalar).dtype(), DType::float64);
}

TEST(NumpyPromotion, WeakIntegersKeepTheArrayDtype) {
    KILN_REQUIRE_DEVICE();
    // test_nep50_promotions.py: test_nep50_weak_integers (int8 and uint64 of its dtypes):
    // array(100) + the dtype's maximum wraps and keeps the dtype.
    const ndarray i8 = kiln::array(std::vector<std::int8_t>{100}).reshape({}) +
                       std::numeric_limits<std::int8_t>::max();
    EXPECT_EQ(i8.dtype(), DType::int8);
    EXPECT_EQ(i8.get<std::int8_t>()[0], static_cast<std::int8_t>(100 + 127 - 256));
    const ndarray u64 = kiln::array(std::vector<std::uint64_t>{100}).reshape({}) +
                        std::numeric_limits<std::uint64_t>::max();
    EXPECT_EQ(u64.dtype(), DType::uint64);
    EXPECT_EQ(u64.get<std::uint64_t>()[0], 99U);

    // test_weak_promotion_scalar_path (add; power is left to test_ufuncs): uint8(3) + 5 is uint8
    // 8, uint8(3) + 1000 an error, float32(3) + 5.0 float32 8.
    const ndarray three = kiln::array(std::vector<std::uint8_t>{3}).reshape({});
    const ndarray eight = three + 5;
    EXPECT_EQ(eight.dtype(), DType::uint8);
    EXPECT_EQ(eight.get<std::uint8_t>()[0], 8);
    EXPECT_THROW((void)(three + 1000), kiln::TypeError);
    const ndarray f = kiln::array(std::vector<float>{3}).reshape({}) + 5.0;
    EXPECT_EQ(f.dtype(), DType::float32);
    EXPECT_EQ(f.get<float>()[0], 8.0F);
}

TEST(NumpyPromotion, OutOfBoundsIntegersInArithmeticAreErrors) {
    KILN_REQUIRE_DEVICE();
    // test_nep50_promotions.py: test_nep50_integer_conversion_errors (NumPy's OverflowError is a
    // TypeError naming the ufunc, the argument and the dtype here).
    const ndarray u8 = kiln::array(std::vector<std::uint8_t>{1});
    kiln::test::expect_error<kiln::TypeError>(
        [&] { (void)(u8 + 300); },
        "kiln: add: argument 2: the scalar cannot be represented in uint8, the dtype of the other "
        "arguments");
    EXPECT_THROW((void)(u8 + -1), kiln::TypeError);

    // test_nep50_huge_integers (add): 2**63 does not fit int64, but fits uint64.
    const ndarray i64 = kiln::array(std::vector<std::int64_t>{0}).reshape({});
    const std::uint64_t two_63 = std::uint64_t{1} << 63U;
    EXPECT_THROW((void)kiln::add(i64, two_63), kiln::TypeError);
    EXPECT_THROW((void)kiln::add(i64 + 1, two_63), kiln::TypeError);
    const ndarray sum = kiln::add(kiln::array(std::vector<std::uint64_t>{1}).reshape({}), two_63);
    EXPECT_EQ(sum.dtype(), DType::uint64);
    EXPECT_EQ(sum.get<std::uint64_t>()[0], two_63 + 1);
}

// Python's exact comparison of two integers.
bool compare(std::string_view op, long double x, long double y) {
    if (op == "equal") {
        return x == y;
    }
    if (op == "not_equal") {
        return x != y;
    }
    if (op == "less") {
        return x < y;
    }
    if (op == "less_equal") {
        return x <= y;
    }
    if (op == "greater") {
        return x > y;
    }
    return x >= y;
}

using Comparison = ndarray (*)(const Argument&, const Argument&, const kiln::UfuncOptions&);

struct NamedComparison {
    std::string_view name;
    Comparison function;
};

const std::vector<NamedComparison>& comparisons() {
    static const std::vector<NamedComparison> all = {
        {"equal", &kiln::equal},     {"not_equal", &kiln::not_equal},
        {"less", &kiln::less},       {"less_equal", &kiln::less_equal},
        {"greater", &kiln::greater}, {"greater_equal", &kiln::greater_equal}};
    return all;
}

// test_nep50_promotions.py: test_integer_comparison for one array dtype: [10, 10] against each
// of its values, as Python compares 10 with them. Its -2 * 100 and 2 * 100, 2**63, and the ends
// of C++'s integers; int64 and uint64 numbers, so that each dtype compiles few kernels. The
// scalar goes first only where it is out of range (no kernel).
template <class T>
void expect_exact_comparisons() {
    const ndarray tens = kiln::array(std::vector<T>{10, 10});
    const std::int64_t min = std::numeric_limits<std::int64_t>::min();
    const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
    const std::vector<std::pair<Scalar, long double>> others = {
        {Scalar(std::int64_t{-200}), -200},
        {Scalar(std::int64_t{-1}), -1},
        {Scalar(std::int64_t{0}), 0},
        {Scalar(std::int64_t{9}), 9},
        {Scalar(std::int64_t{10}), 10},
        {Scalar(std::int64_t{11}), 11},
        {Scalar(std::int64_t{200}), 200},
        {Scalar(std::uint64_t{1} << 63U), 0x1p63L},
        {Scalar(min), -0x1p63L},
        {Scalar(max), 0x1p64L - 1}};
    for (const auto& [name, function] : comparisons()) {
        for (const auto& [scalar, value] : others) {
            const std::string where = std::string(name) + " with " + std::to_string(value) +
                                      " on " + std::string(kiln::name(tens.dtype()));
            const ndarray right = function(tens, scalar, {});
            EXPECT_EQ(right.dtype(), DType::bool_) << where;
            EXPECT_EQ(right.template get<bool>(), std::vector<bool>(2, compare(name, 10, value)))
                << where;
            if (value < static_cast<long double>(std::numeric_limits<T>::min()) ||
                value > static_cast<long double>(std::numeric_limits<T>::max())) {
                EXPECT_EQ(function(scalar, tens, {}).template get<bool>(),
                          std::vector<bool>(2, compare(name, value, 10)))
                    << where;
            }
        }
    }
}

TEST(NumpyPromotion, IntegerComparisonsAreExact) {
    KILN_REQUIRE_DEVICE();
    // test_nep50_promotions.py: test_integer_comparison, for int8 and uint64 of its eight dtypes
    // (each dtype compiles six kernels).
    expect_exact_comparisons<std::int8_t>();
    expect_exact_comparisons<std::uint64_t>();
}

TEST(NumpyPromotion, OutOfBoundsComparisonsOfViewsAndLongArrays) {
    KILN_REQUIRE_DEVICE();
    // test_nep50_promotions.py: test_integer_comparison_with_cast: a strided uint8 view and long
    // uint32 arrays against -1.
    const std::vector<kiln::Index> every_other_row{kiln::Slice{.step = 2}};
    const ndarray view = kiln::ones({100, 100}, DType::uint8).slice(every_other_row);
    const ndarray long_array = kiln::ones({20000}, DType::uint32);
    for (const ndarray& a : {view, long_array, kiln::ones({100}, DType::uint32)}) {
        const auto count = static_cast<std::size_t>(a.size());
        const ndarray at_least = a >= -1;
        EXPECT_EQ(at_least.shape(), a.shape());
        EXPECT_EQ(at_least.get<bool>(), std::vector<bool>(count, true));
        EXPECT_EQ((a < -1).get<bool>(), std::vector<bool>(count, false));
    }

    // `out` receives the answer; a requested dtype is a cast the scalar must survive.
    const ndarray out = kiln::zeros({3}, DType::int32);
    const ndarray u8 = kiln::zeros({3}, DType::uint8);
    EXPECT_EQ(kiln::not_equal(u8, -1, {.out = out}).get<std::int32_t>(),
              (std::vector<std::int32_t>{1, 1, 1}));
    EXPECT_THROW((void)kiln::less(u8, -1, {.dtype = DType::uint8}), kiln::TypeError);
    kiln::test::expect_error<kiln::ShapeError>(
        [&] { (void)kiln::less(u8, -1, {.out = kiln::zeros({2}, DType::bool_)}); },
        "kiln: less: out has shape (2,); expected the broadcast shape (3,)");
}

TEST(NumpyPromotion, UnsignedMaximumAgainstMinusOne) {
    KILN_REQUIRE_DEVICE();
    // test_umath.py: TestComparisons.test_unsigned_signed_direct_comparison, each unsigned dtype,
    // each comparison, flipped and not.
    const std::vector<ndarray> maxima = {
        kiln::array(std::vector<std::uint8_t>{std::numeric_limits<std::uint8_t>::max()}),
        kiln::array(std::vector<std::uint16_t>{std::numeric_limits<std::uint16_t>::max()}),
        kiln::array(std::vector<std::uint32_t>{std::numeric_limits<std::uint32_t>::max()}),
        kiln::array(std::vector<std::uint64_t>{std::numeric_limits<std::uint64_t>::max()})};
    for (const ndarray& arr : maxima) {
        for (const auto& [name, function] : comparisons()) {
            EXPECT_EQ(function(arr, -1, {}).get<bool>()[0], compare(name, 1, -1)) << name;
            EXPECT_EQ(function(-1, arr, {}).get<bool>()[0], compare(name, -1, 1)) << name;
        }
    }
}

}  // namespace
