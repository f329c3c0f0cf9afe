/// @file
/// kiln::half: IEEE 754 binary16 storage on the host, the element type of kiln::float16 arrays
/// (NumPy's float16). It only stores and converts; arithmetic happens in float.
#pragma once

#include <bit>
#include <cstdint>

namespace kiln {

namespace detail {

// float -> binary16 bits, rounding to nearest with ties to even, as IEEE 754 and NumPy do.
constexpr std::uint16_t float_to_half_bits(float value) noexcept {
    const auto word = std::bit_cast<std::uint32_t>(value);
    const auto sign = static_cast<std::uint16_t>((word >> 16U) & 0x8000U);
    const std::uint32_t magnitude = word & 0x7fffffffU;
    const std::uint32_t float_exponent = magnitude >> 23U;

    if (magnitude > 0x7f800000U) {
        // NaN: quiet it and keep the top of the payload.
        return sign | 0x7e00U | ((magnitude >> 13U) & 0x03ffU);
    }
    if (magnitude >= 0x477ff000U) {
        // At or beyond 65520, halfway between 65504 and 2^16, the value rounds to infinity.
        return sign | 0x7c00U;
    }
    if (magnitude >= 0x38800000U) {
        // Normal in binary16 (>= 2^-14): rebias the exponent from 127 to 15 and drop 13 mantissa
        // bits. A carry out of the mantissa correctly bumps the exponent.
        const std::uint32_t round_bias = 0x0fffU + ((magnitude >> 13U) & 1U);
        return sign | static_cast<std::uint16_t>((magnitude + round_bias - (112U << 23U)) >> 13U);
    }
    if (magnitude <= 0x33000000U) {
        // At most 2^-25, half the smallest subnormal: the tie at 2^-25 goes to the even zero.
        return sign;
    }
    // Subnormal in binary16: count units of 2^-24. The float is normal here (exponent 102..112),
    // so its value is significand * 2^(exponent - 150) and the shift to units of 2^-24 is
    // 126 - exponent, between 14 and 24.
    const std::uint32_t significand = (magnitude & 0x007fffffU) | 0x00800000U;
    const std::uint32_t shift = 126U - float_exponent;
    std::uint32_t units = significand >> shift;
    const std::uint32_t remainder = significand & ((1U << shift) - 1U);
    const std::uint32_t halfway = 1U << (shift - 1U);
    if (remainder > halfway || (remainder == halfway && (units & 1U) != 0U)) {
        ++units;  // reaching 1024 units gives the smallest normal, whose encoding is 0x0400
    }
    return sign | static_cast<std::uint16_t>(units);
}

// binary16 bits -> float. Exact: float has more range and precision than binary16.
constexpr float half_bits_to_float(std::uint16_t bits) noexcept {
    const std::uint32_t sign = (std::uint32_t{bits} & 0x8000U) << 16U;
    const std::uint32_t exponent = (std::uint32_t{bits} >> 10U) & 0x1fU;
    const std::uint32_t mantissa = std::uint32_t{bits} & 0x03ffU;
    if (exponent == 0x1fU) {
        return std::bit_cast<float>(sign | 0x7f800000U | (mantissa << 13U));
    }
    if (exponent == 0U) {
        // Zero or subnormal: mantissa * 2^-24, exact in float.
        const auto unit = std::bit_cast<float>(std::uint32_t{0x33800000U});
        const float value = static_cast<float>(mantissa) * unit;
        return std::bit_cast<float>(sign | std::bit_cast<std::uint32_t>(value));
    }
    return std::bit_cast<float>(sign | ((exponent + 112U) << 23U) | (mantissa << 13U));
}

}  // namespace detail

/// IEEE binary16, the element type of float16 arrays: storage only; arithmetic goes through float.
struct half {
    /// The binary16 encoding: 1 sign bit, 5 exponent bits (bias 15), 10 mantissa bits.
    std::uint16_t bits = 0;

    constexpr half() noexcept = default;

    /// Rounds to the nearest binary16 value, ties to even; magnitudes from 65520 up become
    /// infinity and NaN stays NaN. A double argument is first rounded to float.
    constexpr explicit half(float value) noexcept : bits(detail::float_to_half_bits(value)) {}

    /// Exact. Implicit, so a half reads like the float it holds (printing, comparisons, math).
    constexpr operator float() const noexcept { return detail::half_bits_to_float(bits); }

    /// The half whose encoding is `bits`.
    [[nodiscard]] static constexpr half from_bits(std::uint16_t bits) noexcept {
        half value;
        value.bits = bits;
        return value;
    }
};

static_assert(sizeof(half) == 2);
static_assert(alignof(half) == 2);

}  // namespace kiln
