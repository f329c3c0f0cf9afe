// Seeded inputs drawn on the host with Philox4x32-10, following the streams that
// include/kiln/random.hpp documents (element k of seed s is a pure function of (s, k)), so that
// kiln-bench, its Kokkos references and bench/cupy_compare.py all see the same numbers.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace kiln::bench::philox {

// The two 64-bit words of element `index` of stream `seed`.
[[nodiscard]] inline std::array<std::uint64_t, 2> words(std::uint64_t seed, std::uint64_t index) {
    constexpr std::uint64_t multiplier0 = 0xD2511F53U;
    constexpr std::uint64_t multiplier1 = 0xCD9E8D57U;
    std::array<std::uint32_t, 2> key{static_cast<std::uint32_t>(seed),
                                     static_cast<std::uint32_t>(seed >> 32U)};
    std::array<std::uint32_t, 4> c{static_cast<std::uint32_t>(index),
                                   static_cast<std::uint32_t>(index >> 32U), 0, 0};
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            key[0] += 0x9E3779B9U;
            key[1] += 0xBB67AE85U;
        }
        const std::uint64_t product0 = multiplier0 * c[0];
        const std::uint64_t product1 = multiplier1 * c[2];
        c = {static_cast<std::uint32_t>(product1 >> 32U) ^ c[1] ^ key[0],
             static_cast<std::uint32_t>(product1),
             static_cast<std::uint32_t>(product0 >> 32U) ^ c[3] ^ key[1],
             static_cast<std::uint32_t>(product0)};
    }
    return {c[0] | (std::uint64_t{c[1]} << 32U), c[2] | (std::uint64_t{c[3]} << 32U)};
}

// Significand bits of the element type: what a uniform draw keeps of its word.
template <class T>
inline constexpr int significand_bits = sizeof(T) == 8 ? 53 : 24;

// Uniform in [low, high): the word's top p bits as a fraction, scaled with one rounding.
template <class T>
[[nodiscard]] T uniform(std::uint64_t seed, std::uint64_t index, double low, double high) {
    constexpr int p = significand_bits<T>;
    const double u =
        std::ldexp(static_cast<double>(words(seed, index)[0] >> static_cast<unsigned>(64 - p)), -p);
    return static_cast<T>(std::fma(high - low, u, low));
}

// Normal (Box-Muller, cosine branch), scaled with one rounding.
template <class T>
[[nodiscard]] T normal(std::uint64_t seed, std::uint64_t index, double mean, double stddev) {
    const auto w = words(seed, index);
    const double u1 = std::ldexp(static_cast<double>(w[0] >> 11U), -53);
    const double u2 = std::ldexp(static_cast<double>(w[1] >> 11U), -53);
    constexpr double two_pi = 0x1.921fb54442d18p+2;
    const double z = std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(two_pi * u2);
    return static_cast<T>(std::fma(stddev, z, mean));
}

// The high 64 bits of the 128-bit product a * b, from four 32-bit products.
[[nodiscard]] inline std::uint64_t multiply_high(std::uint64_t a, std::uint64_t b) {
    constexpr std::uint64_t low32 = 0xFFFFFFFFU;
    const std::uint64_t lo_lo = (a & low32) * (b & low32);
    const std::uint64_t hi_lo = (a >> 32U) * (b & low32);
    const std::uint64_t lo_hi = (a & low32) * (b >> 32U);
    const std::uint64_t hi_hi = (a >> 32U) * (b >> 32U);
    const std::uint64_t cross = (lo_lo >> 32U) + (hi_lo & low32) + lo_hi;
    return hi_hi + (hi_lo >> 32U) + (cross >> 32U);
}

// Integers in [low, high): the high word of the product of the word and the range.
template <class T>
[[nodiscard]] T integer(std::uint64_t seed, std::uint64_t index, std::int64_t low,
                        std::int64_t high) {
    const auto range = static_cast<std::uint64_t>(high - low);
    return static_cast<T>(low +
                          static_cast<std::int64_t>(multiply_high(words(seed, index)[0], range)));
}

}  // namespace kiln::bench::philox
