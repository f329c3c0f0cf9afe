#include <kiln/error.hpp>
#include <kiln/scalar.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>

namespace {

template <class T>
T as(const kiln::Scalar& value, kiln::DType dtype) {
    const auto bytes = value.bytes_as(dtype);
    T out;
    std::memcpy(&out, bytes.data(), sizeof(T));
    return out;
}

TEST(Scalar, KeepsTheDtypeOfItsCppType) {
    EXPECT_EQ(kiln::Scalar(7).dtype(), kiln::int32);
    EXPECT_EQ(kiln::Scalar(7U).dtype(), kiln::uint32);
    EXPECT_EQ(kiln::Scalar(std::int64_t{7}).dtype(), kiln::int64);
    EXPECT_EQ(kiln::Scalar(1.5F).dtype(), kiln::float32);
    EXPECT_EQ(kiln::Scalar(true).dtype(), kiln::bool_);
    EXPECT_EQ(kiln::Scalar(std::complex<float>(1, 2)).dtype(), kiln::complex64);
    EXPECT_EQ(kiln::Scalar(kiln::half(1.0F)).dtype(), kiln::float16);
}

TEST(Scalar, ConvertsToEveryDtype) {
    EXPECT_EQ(as<std::uint8_t>(255, kiln::uint8), 255);
    EXPECT_EQ(as<std::int8_t>(-128, kiln::int8), -128);
    EXPECT_EQ(as<std::int32_t>(1.75, kiln::int32), 1);
    EXPECT_EQ(as<std::int32_t>(-1.75, kiln::int32), -1);
    EXPECT_EQ(as<std::uint64_t>(std::numeric_limits<std::uint64_t>::max(), kiln::uint64),
              std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(as<float>(true, kiln::float32), 1.0F);
    EXPECT_EQ(as<bool>(0.0, kiln::bool_), false);
    EXPECT_EQ(as<bool>(std::complex<double>(0, 1), kiln::bool_), true);
    EXPECT_EQ(as<double>(std::complex<double>(3, 4), kiln::float64), 3.0);
    EXPECT_EQ(as<std::complex<float>>(2, kiln::complex64), std::complex<float>(2, 0));
    EXPECT_EQ(as<std::uint16_t>(2.5, kiln::float16), kiln::half(2.5F).bits);
    // Rounded once, as NumPy rounds float64 -> float16 (via float it would round to 0x3C00).
    EXPECT_EQ(as<std::uint16_t>(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40), kiln::float16),
              0x3C01);
    EXPECT_EQ(as<std::uint16_t>(1.0 + std::ldexp(1.0, -11), kiln::float16), 0x3C00) << "a tie";
}

TEST(Scalar, OutOfRangeValuesAreTypeErrors) {
    for (const auto& [value, dtype] : std::initializer_list<std::pair<kiln::Scalar, kiln::DType>>{
             {300, kiln::uint8},
             {-1, kiln::uint32},
             {128, kiln::int8},
             {std::numeric_limits<std::uint64_t>::max(), kiln::int64},
             {std::nan(""), kiln::int32},
             {1e20, kiln::int64},
             {-1e300, kiln::uint64},
         }) {
        EXPECT_THROW((void)value.bytes_as(dtype), kiln::TypeError) << kiln::name(dtype);
    }
    try {
        (void)kiln::Scalar(300).bytes_as(kiln::uint8);
    } catch (const kiln::TypeError& e) {
        EXPECT_STREQ(e.what(), "kiln: scalar 300 is out of range for uint8");
    }
}

}  // namespace
