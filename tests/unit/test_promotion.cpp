// NEP 50 promotion and the ufuncs' loop and output dtypes, against NumPy 2's results (each case
// is what numpy.result_type or the ufunc gives for arrays of the strong dtypes and Python scalars
// of the weak kinds).
#include "core/routines/promotion.hpp"
#include "core/routines/ufunc_call.hpp"
#include "core/routines/ufunc_table.hpp"

#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

using kiln::DType;
using kiln::detail::promote_weak;
namespace ufuncs = kiln::detail::ufuncs;

DType promote(std::vector<DType> strong, std::vector<DType> weak = {}) {
    return promote_weak(strong, weak);
}

TEST(Promotion, ArraysPromoteAsPromoteTypes) {
    EXPECT_EQ(promote({DType::int16, DType::int32}), DType::int32);
    EXPECT_EQ(promote({DType::uint8, DType::int8}), DType::int16);
    EXPECT_EQ(promote({DType::uint64, DType::int64}), DType::float64);
    EXPECT_EQ(promote({DType::float16, DType::int8}), DType::float16);
    EXPECT_EQ(promote({DType::int32, DType::float32}), DType::float64);
    EXPECT_EQ(promote({DType::float32, DType::complex64}), DType::complex64);
    EXPECT_EQ(promote({DType::float64, DType::complex64}), DType::complex128);
    EXPECT_EQ(promote({DType::bool_, DType::bool_}), DType::bool_);
}

// result_type answers arrays of one dtype without promoting (promotion.cpp): NumPy's
// promote_types(d, d) is d for every dtype.
TEST(Promotion, OneDtypeIsItsOwnResult) {
    for (const DType dtype : kiln::detail::promotion_order) {
        EXPECT_EQ(promote({dtype, dtype}), dtype) << name(dtype);
        EXPECT_EQ(promote({dtype, dtype, dtype}), dtype) << name(dtype);
    }
}

TEST(Promotion, ManyArraysPromoteAsNumPysDTypeSequence) {
    using enum DType;
    // numpy/_core/tests/test_nep50_promotions.py: test_expected_promotion's third set, whose
    // pairwise fold (int16, uint16 -> int32; int32, float16 -> float64) NumPy does not take.
    EXPECT_EQ(promote({int16, uint16, float16}), float32);
    EXPECT_EQ(promote({float16, int16, uint16, int8, uint8}), float32);
    // float16 leads, having NumPy's highest type number: int8, uint8 do not meet as int16.
    EXPECT_EQ(promote({int8, uint8, float16}), float16);
    EXPECT_EQ(promote({uint8, float16, int8}), float16);
    EXPECT_EQ(promote({int16, uint16, complex64}), complex64);
    EXPECT_EQ(promote({int16, uint16, float32, int8}), float32);
    // Without float16 or a mix across kinds, it is the pairwise answer.
    EXPECT_EQ(promote({int8, uint16, uint32}), int64);
    EXPECT_EQ(promote({int64, uint64, float16}), float64);
    EXPECT_EQ(promote({int16, uint16}, {float64}), float64);
    EXPECT_EQ(promote({int8, uint8, float16}, {complex128}), complex64);
    EXPECT_THROW((void)kiln::detail::promote_dtypes({}), kiln::TypeError);
}

TEST(Promotion, ScalarsAreWeak) {
    // float32 array * 2.0 stays float32; int8 array + 1 stays int8.
    EXPECT_EQ(promote({DType::float32}, {DType::float64}), DType::float32);
    EXPECT_EQ(promote({DType::float16}, {DType::float64}), DType::float16);
    EXPECT_EQ(promote({DType::int8}, {DType::int64}), DType::int8);
    EXPECT_EQ(promote({DType::uint16}, {DType::int32}), DType::uint16);
    EXPECT_EQ(promote({DType::complex64}, {DType::complex128}), DType::complex64);
    EXPECT_EQ(promote({DType::float32}, {DType::int32, DType::bool_}), DType::float32);
}

TEST(Promotion, AScalarOfAHigherKindRaisesTheResult) {
    EXPECT_EQ(promote({DType::bool_}, {DType::int32}), DType::int64);
    EXPECT_EQ(promote({DType::int32}, {DType::float32}), DType::float64);
    EXPECT_EQ(promote({DType::uint8}, {DType::float64}), DType::float64);
    EXPECT_EQ(promote({DType::float16}, {DType::complex128}), DType::complex64);
    EXPECT_EQ(promote({DType::float32}, {DType::complex128}), DType::complex64);
    EXPECT_EQ(promote({DType::float64}, {DType::complex64}), DType::complex128);
    EXPECT_EQ(promote({DType::int16}, {DType::complex64}), DType::complex128);
}

TEST(Promotion, ScalarsAlonePromoteAmongThemselves) {
    EXPECT_EQ(promote({}, {DType::int32, DType::int32}), DType::int32);
    EXPECT_EQ(promote({}, {DType::int32, DType::float64}), DType::float64);
    EXPECT_THROW((void)promote({}, {}), kiln::TypeError);
}

TEST(UfuncDtypes, LoopDtypes) {
    using kiln::detail::loop_dtype;
    // True division of integers and bools is float64; floats keep their precision.
    EXPECT_EQ(loop_dtype(ufuncs::true_divide, DType::int8), DType::float64);
    EXPECT_EQ(loop_dtype(ufuncs::true_divide, DType::bool_), DType::float64);
    EXPECT_EQ(loop_dtype(ufuncs::true_divide, DType::float32), DType::float32);
    // Math functions of integers: the smallest floating dtype that holds them.
    EXPECT_EQ(loop_dtype(ufuncs::exp, DType::bool_), DType::float16);
    EXPECT_EQ(loop_dtype(ufuncs::exp, DType::int8), DType::float16);
    EXPECT_EQ(loop_dtype(ufuncs::exp, DType::uint8), DType::float16);
    EXPECT_EQ(loop_dtype(ufuncs::exp, DType::int16), DType::float32);
    EXPECT_EQ(loop_dtype(ufuncs::exp, DType::int32), DType::float64);
    EXPECT_EQ(loop_dtype(ufuncs::exp, DType::uint64), DType::float64);
    EXPECT_EQ(loop_dtype(ufuncs::exp, DType::complex64), DType::complex64);
    EXPECT_EQ(loop_dtype(ufuncs::add, DType::int8), DType::int8);
    // NumPy's floor_divide, remainder and power have no bool loop: bools use int8's.
    for (const auto* ufunc : {&ufuncs::floor_divide, &ufuncs::remainder, &ufuncs::power}) {
        EXPECT_EQ(loop_dtype(*ufunc, DType::bool_), DType::int8) << ufunc->name;
        EXPECT_EQ(loop_dtype(*ufunc, DType::uint16), DType::uint16) << ufunc->name;
        EXPECT_EQ(loop_dtype(*ufunc, DType::float16), DType::float16) << ufunc->name;
    }
}

TEST(UfuncDtypes, OutputDtypes) {
    using kiln::detail::output_dtype;
    EXPECT_EQ(output_dtype(ufuncs::less, DType::float32), DType::bool_);
    EXPECT_EQ(output_dtype(ufuncs::absolute, DType::complex64), DType::float32);
    EXPECT_EQ(output_dtype(ufuncs::absolute, DType::complex128), DType::float64);
    EXPECT_EQ(output_dtype(ufuncs::absolute, DType::int16), DType::int16);
    EXPECT_EQ(output_dtype(ufuncs::multiply, DType::complex64), DType::complex64);
}

TEST(UfuncDtypes, AnUnsupportedKindNamesTheUfuncAndWhatItTakes) {
    try {
        (void)kiln::detail::ufunc_operation(ufuncs::left_shift, DType::float32, DType::float32);
        ADD_FAILURE() << "expected kiln::TypeError";
    } catch (const kiln::TypeError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("left_shift"), std::string::npos) << what;
        EXPECT_NE(what.find("float32"), std::string::npos) << what;
        EXPECT_NE(what.find("takes integer dtypes"), std::string::npos) << what;
    }
}

}  // namespace
