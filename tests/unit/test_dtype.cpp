#include <kiln/dtype.hpp>
#include <kiln/error.hpp>
#include <kiln/float16.hpp>

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>

namespace {

using kiln::bool_;
using kiln::complex128;
using kiln::complex64;
using kiln::DType;
using kiln::float16;
using kiln::float32;
using kiln::float64;
using kiln::half;
using kiln::int16;
using kiln::int32;
using kiln::int64;
using kiln::int8;
using kiln::uint16;
using kiln::uint32;
using kiln::uint64;
using kiln::uint8;

// NumPy's order, which is also the order of every table below.
constexpr std::array<DType, 14> all_dtypes{bool_,   int8,    int16,     int32,     int64,
                                           uint8,   uint16,  uint32,    uint64,    float16,
                                           float32, float64, complex64, complex128};

bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

// The constants are usable at compile time, as hot paths need.
static_assert(kiln::itemsize(float64) == 8);
static_assert(kiln::name(complex64) == "complex64");
static_assert(kiln::promote_types(int8, uint8) == int16);
static_assert(kiln::can_cast(int64, float64) && !kiln::can_cast(float64, int64));
static_assert(kiln::dtype_of<float> == float32);

TEST(DType, ConstantsAreTheEnumerators) {
    EXPECT_EQ(bool_, DType::bool_);
    EXPECT_EQ(int8, DType::int8);
    EXPECT_EQ(uint64, DType::uint64);
    EXPECT_EQ(float16, DType::float16);
    EXPECT_EQ(complex128, DType::complex128);
    for (std::size_t i = 0; i < all_dtypes.size(); ++i) {
        EXPECT_EQ(static_cast<std::size_t>(all_dtypes.at(i)), i);
    }
}

TEST(DType, NameItemsizeAndKindMatchNumPy) {
    struct Expected {
        std::string_view name;
        std::size_t itemsize;
        char kind;
    };
    // /usr/bin/python3 -c "import numpy as np; n='bool int8 int16 int32 int64 uint8 uint16 uint32
    // uint64 float16 float32 float64 complex64 complex128'.split(); print('\n'.join(f'{{\"{np.
    // dtype(t).name}\", {np.dtype(t).itemsize}, \'{np.dtype(t).kind}\'}},' for t in n))"
    constexpr std::array<Expected, 14> numpy{{
        {"bool", 1, 'b'},
        {"int8", 1, 'i'},
        {"int16", 2, 'i'},
        {"int32", 4, 'i'},
        {"int64", 8, 'i'},
        {"uint8", 1, 'u'},
        {"uint16", 2, 'u'},
        {"uint32", 4, 'u'},
        {"uint64", 8, 'u'},
        {"float16", 2, 'f'},
        {"float32", 4, 'f'},
        {"float64", 8, 'f'},
        {"complex64", 8, 'c'},
        {"complex128", 16, 'c'},
    }};
    for (std::size_t i = 0; i < all_dtypes.size(); ++i) {
        const DType dtype = all_dtypes.at(i);
        EXPECT_EQ(kiln::name(dtype), numpy.at(i).name);
        EXPECT_EQ(kiln::itemsize(dtype), numpy.at(i).itemsize) << dtype;
        EXPECT_EQ(kiln::kind(dtype), numpy.at(i).kind) << dtype;
    }
}

TEST(DType, AlignmentIsTheItemsizeSoComplexIsFullyAligned) {
    for (const DType dtype : all_dtypes) {
        EXPECT_EQ(kiln::alignment(dtype), kiln::itemsize(dtype)) << dtype;
    }
    EXPECT_EQ(kiln::alignment(complex64), 8U);
    EXPECT_EQ(kiln::alignment(complex128), 16U);
}

TEST(DType, CTypesAreCuPysSpellings) {
    constexpr std::array<std::string_view, 14> cupy{"bool",
                                                    "signed char",
                                                    "short",
                                                    "int",
                                                    "long long",
                                                    "unsigned char",
                                                    "unsigned short",
                                                    "unsigned int",
                                                    "unsigned long long",
                                                    "float16",
                                                    "float",
                                                    "double",
                                                    "complex<float>",
                                                    "complex<double>"};
    for (std::size_t i = 0; i < all_dtypes.size(); ++i) {
        EXPECT_EQ(kiln::c_type(all_dtypes.at(i)), cupy.at(i));
    }
}

TEST(DType, PrintsItsName) {
    for (const DType dtype : all_dtypes) {
        std::ostringstream out;
        out << dtype;
        EXPECT_EQ(out.str(), kiln::name(dtype));
    }
}

TEST(DType, FromNameReadsEveryNumPyName) {
    for (const DType dtype : all_dtypes) {
        EXPECT_EQ(kiln::dtype_from_name(kiln::name(dtype)), dtype);
    }
    EXPECT_EQ(kiln::dtype_from_name("bool_"), bool_);
    EXPECT_EQ(kiln::dtype_from_name("float16"), float16);
}

TEST(DType, FromNameRefusesOtherTextNamingItAndTheValidNames) {
    for (const char* text : {"", "float", "double", "Float32", "float32 ", "int", "complex", "f4",
                             "bool__", "uint128"}) {
        try {
            (void)kiln::dtype_from_name(text);
            ADD_FAILURE() << "accepted '" << text << "'";
        } catch (const kiln::TypeError& e) {
            const std::string what = e.what();
            EXPECT_TRUE(contains(what, "kiln: dtype_from_name: '" + std::string(text) + "'"))
                << what;
            EXPECT_TRUE(contains(what, "bool, int8, int16")) << what;
            EXPECT_TRUE(contains(what, "complex64, complex128")) << what;
        }
    }
}

TEST(DType, PromoteTypesMatchesNumPy) {
    // /usr/bin/python3 -c "import numpy as np; n='bool int8 int16 int32 int64 uint8 uint16 uint32
    // uint64 float16 float32 float64 complex64 complex128'.split(); print('\n'.join('{' + ', '.
    // join(np.promote_types(a, b).name.replace('bool', 'bool_') for b in n) + '},' for a in n))"
    // clang-format off
    constexpr std::array<std::array<DType, 14>, 14> numpy{{
{bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, complex64, complex128},
{int8, int8, int16, int32, int64, int16, int32, int64, float64, float16, float32, float64, complex64, complex128},
{int16, int16, int16, int32, int64, int16, int32, int64, float64, float32, float32, float64, complex64, complex128},
{int32, int32, int32, int32, int64, int32, int32, int64, float64, float64, float64, float64, complex128, complex128},
{int64, int64, int64, int64, int64, int64, int64, int64, float64, float64, float64, float64, complex128, complex128},
{uint8, int16, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, complex64, complex128},
{uint16, int32, int32, int32, int64, uint16, uint16, uint32, uint64, float32, float32, float64, complex64, complex128},
{uint32, int64, int64, int64, int64, uint32, uint32, uint32, uint64, float64, float64, float64, complex128, complex128},
{uint64, float64, float64, float64, float64, uint64, uint64, uint64, uint64, float64, float64, float64, complex128, complex128},
{float16, float16, float32, float64, float64, float16, float32, float64, float64, float16, float32, float64, complex64, complex128},
{float32, float32, float32, float64, float64, float32, float32, float64, float64, float32, float32, float64, complex64, complex128},
{float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, complex128, complex128},
{complex64, complex64, complex64, complex128, complex128, complex64, complex64, complex128, complex128, complex64, complex64, complex128, complex64, complex128},
{complex128, complex128, complex128, complex128, complex128, complex128, complex128, complex128, complex128, complex128, complex128, complex128, complex128, complex128},
    }};
    // clang-format on
    for (std::size_t a = 0; a < all_dtypes.size(); ++a) {
        for (std::size_t b = 0; b < all_dtypes.size(); ++b) {
            EXPECT_EQ(kiln::promote_types(all_dtypes.at(a), all_dtypes.at(b)), numpy.at(a).at(b))
                << all_dtypes.at(a) << " with " << all_dtypes.at(b);
        }
    }
}

// Row `from`, column `to`: '1' where numpy.can_cast(from, to, casting) is true.
void expect_can_cast_table(kiln::Casting casting, const std::array<std::string_view, 14>& numpy) {
    for (std::size_t from = 0; from < all_dtypes.size(); ++from) {
        for (std::size_t to = 0; to < all_dtypes.size(); ++to) {
            EXPECT_EQ(kiln::can_cast(all_dtypes.at(from), all_dtypes.at(to), casting),
                      numpy.at(from).at(to) == '1')
                << all_dtypes.at(from) << " to " << all_dtypes.at(to);
        }
    }
}

// The tables come from the one-liner with CASTING = 'safe' or 'same_kind':
// /usr/bin/python3 -c "import numpy as np; n='bool int8 int16 int32 int64 uint8 uint16 uint32
// uint64 float16 float32 float64 complex64 complex128'.split(); print('\n'.join('\"' + ''.join('1'
// if np.can_cast(a, b, CASTING) else '.' for b in n) + '\",' for a in n))"
TEST(DType, CanCastSafeMatchesNumPy) {
    constexpr std::array<std::string_view, 14> numpy{
        "11111111111111",  // bool
        ".1111....11111",  // int8
        "..111.....1111",  // int16
        "...11......1.1",  // int32
        "....1......1.1",  // int64
        "..111111111111",  // uint8
        "...11.111.1111",  // uint16
        "....1..11..1.1",  // uint32
        "........1..1.1",  // uint64
        ".........11111",  // float16
        "..........1111",  // float32
        "...........1.1",  // float64
        "............11",  // complex64
        ".............1",  // complex128
    };
    expect_can_cast_table(kiln::Casting::safe, numpy);
}

TEST(DType, CanCastSameKindMatchesNumPy) {
    constexpr std::array<std::string_view, 14> numpy{
        "11111111111111",  // bool
        ".1111....11111",  // int8
        ".1111....11111",  // int16
        ".1111....11111",  // int32
        ".1111....11111",  // int64
        ".1111111111111",  // uint8
        ".1111111111111",  // uint16
        ".1111111111111",  // uint32
        ".1111111111111",  // uint64
        ".........11111",  // float16
        ".........11111",  // float32
        ".........11111",  // float64
        "............11",  // complex64
        "............11",  // complex128
    };
    expect_can_cast_table(kiln::Casting::same_kind, numpy);
}

TEST(DType, CanCastNoAndEquivAllowOnlyTheSameTypeAndUnsafeAllowsAll) {
    for (const DType from : all_dtypes) {
        for (const DType to : all_dtypes) {
            EXPECT_EQ(kiln::can_cast(from, to, kiln::Casting::no), from == to);
            EXPECT_EQ(kiln::can_cast(from, to, kiln::Casting::equiv), from == to);
            EXPECT_TRUE(kiln::can_cast(from, to, kiln::Casting::unsafe));
            EXPECT_EQ(kiln::can_cast(from, to), kiln::can_cast(from, to, kiln::Casting::safe));
        }
    }
}

TEST(DType, InvalidValuesAreTypeErrorsNamingTheFunction) {
    const auto bad = static_cast<DType>(14);
    const auto expect_refused = [](const auto& call, std::string_view function,
                                   std::string_view value) {
        try {
            call();
            ADD_FAILURE() << function << " accepted an invalid value";
        } catch (const kiln::TypeError& e) {
            const std::string what = e.what();
            EXPECT_TRUE(contains(what, "kiln: " + std::string(function) + ": invalid")) << what;
            EXPECT_TRUE(contains(what, value)) << what;
        }
    };
    expect_refused([&] { (void)kiln::name(bad); }, "name", "DType value 14");
    expect_refused([&] { (void)kiln::itemsize(bad); }, "itemsize", "DType value 14");
    expect_refused([&] { (void)kiln::alignment(bad); }, "alignment", "DType value 14");
    expect_refused([&] { (void)kiln::kind(bad); }, "kind", "DType value 14");
    expect_refused([&] { (void)kiln::c_type(static_cast<DType>(255)); }, "c_type",
                   "DType value 255");
    expect_refused([&] { (void)kiln::promote_types(float32, bad); }, "promote_types",
                   "DType value 14");
    expect_refused([&] { (void)kiln::promote_types(bad, float32); }, "promote_types",
                   "DType value 14");
    expect_refused([&] { (void)kiln::can_cast(bad, float32); }, "can_cast", "DType value 14");
    expect_refused([&] { (void)kiln::can_cast(int8, int8, static_cast<kiln::Casting>(5)); },
                   "can_cast", "Casting value 5");
    expect_refused(
        [&] {
            std::ostringstream out;
            out << bad;
        },
        "name", "DType value 14");
}

TEST(DType, DtypeOfMapsEachElementType) {
    static_assert(kiln::dtype_of<bool> == bool_);
    static_assert(kiln::dtype_of<std::int8_t> == int8);
    static_assert(kiln::dtype_of<std::int16_t> == int16);
    static_assert(kiln::dtype_of<std::int32_t> == int32);
    static_assert(kiln::dtype_of<std::int64_t> == int64);
    static_assert(kiln::dtype_of<std::uint8_t> == uint8);
    static_assert(kiln::dtype_of<std::uint16_t> == uint16);
    static_assert(kiln::dtype_of<std::uint32_t> == uint32);
    static_assert(kiln::dtype_of<std::uint64_t> == uint64);
    static_assert(kiln::dtype_of<half> == float16);
    static_assert(kiln::dtype_of<float> == float32);
    static_assert(kiln::dtype_of<double> == float64);
    static_assert(kiln::dtype_of<std::complex<float>> == complex64);
    static_assert(kiln::dtype_of<std::complex<double>> == complex128);
    // long long and long are distinct from std::int64_t on one platform or another.
    static_assert(kiln::dtype_of<long long> == int64);
    static_assert(kiln::dtype_of<unsigned long long> == uint64);
    static_assert(kiln::dtype_of<long> == (sizeof(long) == 8 ? int64 : int32));
    static_assert(kiln::dtype_of<const float> == float32);

    static_assert(!kiln::has_dtype<char>);
    static_assert(!kiln::has_dtype<wchar_t>);
    static_assert(!kiln::has_dtype<long double>);
    static_assert(!kiln::has_dtype<std::complex<long double>>);
    static_assert(!kiln::has_dtype<float*>);
    static_assert(!kiln::has_dtype<std::string>);

    EXPECT_EQ(kiln::itemsize(kiln::dtype_of<std::int16_t>), sizeof(std::int16_t));
    EXPECT_EQ(kiln::itemsize(kiln::dtype_of<half>), sizeof(half));
    EXPECT_EQ(kiln::itemsize(kiln::dtype_of<std::complex<double>>), sizeof(std::complex<double>));
    EXPECT_EQ(kiln::itemsize(kiln::dtype_of<bool>), sizeof(bool));
}

static_assert(half(1.0F).bits == 0x3c00U);
static_assert(static_cast<float>(half::from_bits(0x7bffU)) == 65504.0F);

// The value bits encode, from IEEE 754's definition, in double (where it is exact).
double binary16_value(std::uint16_t bits) {
    const int sign = (bits & 0x8000U) != 0U ? -1 : 1;
    const int exponent = (bits >> 10U) & 0x1f;
    const int mantissa = bits & 0x3ff;
    if (exponent == 0) {
        return sign * std::ldexp(mantissa, -24);
    }
    if (exponent == 31) {
        return sign * std::numeric_limits<double>::infinity();
    }
    return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

bool is_half_nan(std::uint16_t bits) {
    return (bits & 0x7c00U) == 0x7c00U && (bits & 0x03ffU) != 0U;
}

TEST(Half, EveryBitPatternConvertsToItsExactValue) {
    for (std::uint32_t bits = 0; bits <= 0xffffU; ++bits) {
        const auto h = half::from_bits(static_cast<std::uint16_t>(bits));
        const float value = h;
        if (is_half_nan(h.bits)) {
            EXPECT_TRUE(std::isnan(value)) << std::hex << bits;
            continue;
        }
        EXPECT_EQ(static_cast<double>(value), binary16_value(h.bits)) << std::hex << bits;
        EXPECT_EQ(std::signbit(value), (bits & 0x8000U) != 0U) << std::hex << bits;
    }
}

TEST(Half, EveryBitPatternRoundTripsThroughFloat) {
    for (std::uint32_t bits = 0; bits <= 0xffffU; ++bits) {
        const auto original = static_cast<std::uint16_t>(bits);
        const half back(static_cast<float>(half::from_bits(original)));
        if (is_half_nan(original)) {
            EXPECT_TRUE(is_half_nan(back.bits)) << std::hex << bits;
            EXPECT_EQ(back.bits & 0x8000U, original & 0x8000U) << std::hex << bits;
        } else {
            EXPECT_EQ(back.bits, original) << std::hex << bits;
        }
    }
}

TEST(Half, RoundsFloatsLikeNumPy) {
    struct Case {
        std::uint32_t float_bits;
        std::uint16_t half_bits;
    };
    // Ties, the overflow threshold, the subnormal range and its edges, then random floats near
    // binary16's range. Each half is NumPy's, from
    // /usr/bin/python3 -c "import numpy as np; print(np.array(INPUTS, dtype=np.uint32).view(
    // np.float32).astype(np.float16).view(np.uint16))"
    // with the random inputs drawn by sign, exponent 98..145 and mantissa from
    // np.random.default_rng(20240501).
    constexpr std::array<Case, 77> numpy{{
        {0x00000000U, 0x0000U}, {0x80000000U, 0x8000U}, {0x3f800000U, 0x3c00U},
        {0xbf800000U, 0xbc00U}, {0x477fe000U, 0x7bffU}, {0x477fefffU, 0x7bffU},
        {0x477ff000U, 0x7c00U}, {0x477ff001U, 0x7c00U}, {0xc77ff000U, 0xfc00U},
        {0x47800000U, 0x7c00U}, {0x7f7fffffU, 0x7c00U}, {0x7f800000U, 0x7c00U},
        {0xff800000U, 0xfc00U}, {0x38800000U, 0x0400U}, {0x387fc000U, 0x03ffU},
        {0x387fe000U, 0x0400U}, {0x387fdfffU, 0x03ffU}, {0x33800000U, 0x0001U},
        {0x33000000U, 0x0000U}, {0x33000001U, 0x0001U}, {0x32ffffffU, 0x0000U},
        {0xb3000001U, 0x8001U}, {0x33c00000U, 0x0002U}, {0x34200000U, 0x0002U},
        {0x00000001U, 0x0000U}, {0x807fffffU, 0x8000U}, {0x3f801000U, 0x3c00U},
        {0x3f803000U, 0x3c02U}, {0x3f801001U, 0x3c01U}, {0x3f800fffU, 0x3c00U},
        {0x3dcccccdU, 0x2e66U}, {0x3eaaaaabU, 0x3555U}, {0x40490fdbU, 0x4248U},
        {0x45001000U, 0x6800U}, {0x45003000U, 0x6802U}, {0xb727c5acU, 0x80a8U},
        {0x33d6bf95U, 0x0002U}, {0x483e181cU, 0x7c00U}, {0x370ba5e4U, 0x008cU},
        {0x3af1c9edU, 0x178eU}, {0x39eca73aU, 0x0f65U}, {0x35ab1fc1U, 0x0015U},
        {0xb1690f27U, 0x8000U}, {0xb536b4e6U, 0x800bU}, {0xb4ef789fU, 0x8007U},
        {0xb2a71732U, 0x8000U}, {0x39179edaU, 0x08bdU}, {0x36c0fde8U, 0x0060U},
        {0xb9c1112aU, 0x8e09U}, {0xc4366221U, 0xe1b3U}, {0x3abf14daU, 0x15f9U},
        {0x359c0c57U, 0x0014U}, {0xb72bfcc3U, 0x80acU}, {0xc8f300efU, 0xfc00U},
        {0xbf5db304U, 0xbaeeU}, {0xc2c024c5U, 0xd601U}, {0x36435eaaU, 0x0031U},
        {0x31565256U, 0x0000U}, {0xb11644eeU, 0x8000U}, {0x44c6df15U, 0x6637U},
        {0xb59ff2a5U, 0x8014U}, {0xc1b6a058U, 0xcdb5U}, {0xb140a988U, 0x8000U},
        {0xc7c47ac2U, 0xfc00U}, {0x472eda08U, 0x7977U}, {0xc73e963dU, 0xf9f5U},
        {0xba2441b5U, 0x9122U}, {0x3346b78fU, 0x0001U}, {0xc3f88bcbU, 0xdfc4U},
        {0xbbfbe414U, 0x9fdfU}, {0x334f8999U, 0x0001U}, {0xb3133445U, 0x8001U},
        {0x454663c8U, 0x6a33U}, {0xc60c5423U, 0xf063U}, {0x4021e00cU, 0x410fU},
        {0xbc72f4b4U, 0xa398U}, {0xb56fceb4U, 0x800fU},
    }};
    for (const Case& c : numpy) {
        EXPECT_EQ(half(std::bit_cast<float>(c.float_bits)).bits, c.half_bits)
            << std::hex << c.float_bits;
    }
}

TEST(Half, NaNStaysNaNWithItsSign) {
    for (const std::uint32_t bits :
         {0x7fc00000U, 0x7f800001U, 0x7fffffffU, 0xffc00000U, 0xff800001U, 0x7f802000U}) {
        const half h(std::bit_cast<float>(bits));
        EXPECT_TRUE(is_half_nan(h.bits)) << std::hex << bits << " gave " << h.bits;
        EXPECT_EQ((h.bits & 0x8000U) != 0U, (bits & 0x80000000U) != 0U) << std::hex << bits;
    }
}

TEST(Half, DefaultIsPositiveZero) {
    EXPECT_EQ(half{}.bits, 0U);
    EXPECT_EQ(static_cast<float>(half{}), 0.0F);
}

}  // namespace
