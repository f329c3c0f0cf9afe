/// @file
/// kiln::random: counter-based random numbers that are the same on the host and on every GPU
/// backend, so that a benchmark's inputs are identical for kiln, its CPU references and other
/// ports. Each element is a pure function of (seed, its C-order index), computed with Philox4x32-10
/// (Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as easy as 1, 2, 3", SC'11).
///
/// The streams, exactly (a port that follows this reproduces every value):
///
///   Element k of a draw with seed s:
///     key     = (s mod 2^32, s div 2^32)
///     counter = (k mod 2^32, k div 2^32, 0, 0)
///     (w0, w1, w2, w3) = philox4x32<10>(counter, key)
///     x = w0 + 2^32 * w1,  y = w2 + 2^32 * w3                  (unsigned 64-bit words)
///
///   uniform, for a dtype of p significand bits (float64: 53, float32: 24, float16: 11):
///     u = floor(x / 2^(64 - p)) * 2^-p                          in [0, 1), exact
///     v = fma(high - low, u, low)                               in float64, rounded once
///   normal (Box-Muller, cosine branch), in float64:
///     u1 = floor(x / 2^11) * 2^-53,  u2 = floor(y / 2^11) * 2^-53
///     z = sqrt(-2 * LOG(1 - u1)) * COS(u2),  v = fma(stddev, z, mean)
///   Then v is rounded once, to nearest even, to the dtype (NumPy's astype from float64).
///   fma is the fused multiply-add (C's fma, Python 3.13's math.fma): a port must not round the
///   product on its own. With low = 0 and high = 1, v is u; other ranges may round up to `high`
///   itself, as NumPy's uniform may.
///
///   LOG and COS are kiln's own log(t) and cos(2pi u), so that z uses only operations that IEEE
///   754 rounds correctly (+, -, *, /, sqrt, fma) or that are exact (C's frexp and rint) on every
///   platform: C libraries and GPU math libraries round log and cos differently in the last place.
///     LOG(t), t in [2^-53, 1] (measured within 0.75 ulp of log t):
///       (g, e) = frexp(t)                             t = g 2^e, g in [1/2, 1)
///       if g < H: m = g + g, k = e - 1;  else m = g, k = e
///       f = m - 1,  s = f / (2 + f),  w = s * s,  h = 0.5 * f
///       a = fma(s, fma(h, f, w * poly(L, w)), k * LN2_LO)
///       LOG = fma(k, LN2_HI, -(fma(h, f, -a) - f))
///     COS(u), u in [0, 1) (measured within 1.1 ulp of cos(2pi u)):
///       q = rint(4u), ties to even,  r = fma(q, -0.25, u)      u - q/4 in [-1/8, 1/8], exact
///       w = r * r,  c = poly(C, w),  n = fma(TWO_PI, r, r * fma(poly(S, w), w, TWO_PI_LO))
///       COS = c, -n, -c, n  for q = 0, 1, 2, 3 (mod 4)      (cos 2pi r and sin 2pi r)
///   poly(a, w) for a = (a0, ..., an) is Horner's rule with fma: p = an, then p = fma(p, w, ai)
///   for i = n-1 down to 0. The constants are the doubles nearest these values (mpmath's;
///   core/random/box_muller.hpp holds them in hexadecimal):
///     H = sqrt(1/2) = 0x1.6a09e667f3bcdp-1,  TWO_PI = 2pi = 0x1.921fb54442d18p+2
///     TWO_PI_LO = 2pi - TWO_PI = 0x1.1a62633145c07p-52
///     LN2_HI = ln 2 rounded to 40 significant bits = 0x1.62e42fefa4p-1
///     LN2_LO = ln 2 - LN2_HI = -0x1.8432a1b0e2634p-43
///     L = (Li) = 2 / (2i + 3),                       i = 0 .. 9    2 atanh s = 2s + s w poly(L, w)
///     C = (Ci) = (-1)^i (2pi)^(2i) / (2i)!,          i = 0 .. 8    the series of cos 2pi r
///     S = (Si) = (-1)^(i+1) (2pi)^(2i+3) / (2i+3)!,  i = 0 .. 7    of sin 2pi r, past its r term
///
///   integers in [low, high) (Lemire's multiply-high, without rejection):
///     r = high - low,  value = low + floor(x * r / 2^64)        (exact 128-bit product)
///     Each value in the range comes from floor(2^64 / r) or ceil(2^64 / r) of the 2^64 words x,
///     a relative bias of at most r / 2^64 (2^-32 for ranges up to 2^32).
///
/// Every value is bitwise identical on the host and on every device.
#pragma once

#include <kiln/dtype.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/shape.hpp>
#include <kiln/stream_view.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace kiln::random {

/// Philox4x32's 128-bit counter, as four 32-bit words.
using PhiloxCounter = std::array<std::uint32_t, 4>;
/// Philox4x32's 64-bit key, as two 32-bit words.
using PhiloxKey = std::array<std::uint32_t, 2>;

/// The Philox4x32 block function with `Rounds` rounds (kiln's streams use 10): each round
/// multiplies words 0 and 2 by two constants, and crosses the 32-bit halves of the products with
/// words 1 and 3 and the key; the key advances by two Weyl constants between rounds.
template <int Rounds = 10>
[[nodiscard]] constexpr PhiloxCounter philox4x32(PhiloxCounter counter, PhiloxKey key) noexcept {
    constexpr std::uint64_t multiplier0 = 0xD2511F53U;
    constexpr std::uint64_t multiplier1 = 0xCD9E8D57U;
    constexpr std::uint32_t weyl0 = 0x9E3779B9U;
    constexpr std::uint32_t weyl1 = 0xBB67AE85U;
    for (int round = 0; round < Rounds; ++round) {
        if (round > 0) {
            key[0] += weyl0;
            key[1] += weyl1;
        }
        const std::uint64_t product0 = multiplier0 * counter[0];
        const std::uint64_t product1 = multiplier1 * counter[2];
        counter = {static_cast<std::uint32_t>(product1 >> 32U) ^ counter[1] ^ key[0],
                   static_cast<std::uint32_t>(product1),
                   static_cast<std::uint32_t>(product0 >> 32U) ^ counter[3] ^ key[1],
                   static_cast<std::uint32_t>(product0)};
    }
    return counter;
}

/// Element types of uniform_host and normal_host: kiln::half, float and double.
template <class T>
concept real_element = std::same_as<T, double> || std::same_as<T, float> || std::same_as<T, half>;
/// Element types of integers_host: the integer types with a dtype, bool excluded.
template <class T>
concept integer_element = std::integral<T> && has_dtype<T> && !std::same_as<T, bool>;

// New C-contiguous device arrays, on the device of `stream` (default: the current device's
// current stream), where the kernel runs and from which the memory is allocated. Errors: Error
// for a bad range or deviation, TypeError for a dtype the function does not make, ShapeError for
// a bad shape.

/// Uniform values in [low, high) (see above for `high` itself); dtype float16, float32 or float64.
[[nodiscard]] ndarray uniform(const Shape& shape, double low = 0.0, double high = 1.0,
                              std::uint64_t seed = 0, DType dtype = float64,
                              std::optional<StreamView> stream = std::nullopt);
/// Normally distributed values; dtype float16, float32 or float64. stddev 0 gives `mean`.
[[nodiscard]] ndarray normal(const Shape& shape, double mean = 0.0, double stddev = 1.0,
                             std::uint64_t seed = 0, DType dtype = float64,
                             std::optional<StreamView> stream = std::nullopt);
/// Integers in [low, high), which must fit the dtype (any signed or unsigned integer dtype).
[[nodiscard]] ndarray integers(const Shape& shape, std::int64_t low, std::int64_t high,
                               std::uint64_t seed = 0, DType dtype = int64,
                               std::optional<StreamView> stream = std::nullopt);

}  // namespace kiln::random

namespace kiln::detail {

// The host generators behind the twins below: `count` elements of `dtype` at `out`, checked and
// named in errors as `function`.
void random_uniform_host(void* out, DType dtype, std::size_t count, double low, double high,
                         std::uint64_t seed, const char* function);
void random_normal_host(void* out, DType dtype, std::size_t count, double mean, double stddev,
                        std::uint64_t seed, const char* function);
void random_integers_host(void* out, DType dtype, std::size_t count, std::int64_t low,
                          std::int64_t high, std::uint64_t seed, const char* function);

}  // namespace kiln::detail

namespace kiln::random {

/// Host twins: the same values as the device functions with the same arguments, element k of
/// `out` (or of the returned vector) being element k of the device array. Single-threaded. The
/// same checks, naming uniform_host, normal_host and integers_host.
template <real_element T>
void uniform_host(std::span<T> out, double low = 0.0, double high = 1.0, std::uint64_t seed = 0) {
    detail::random_uniform_host(out.data(), dtype_of<T>, out.size(), low, high, seed,
                                "uniform_host");
}
/// `count` values of uniform_host, returned.
template <real_element T>
[[nodiscard]] std::vector<T> uniform_host(std::size_t count, double low = 0.0, double high = 1.0,
                                          std::uint64_t seed = 0) {
    std::vector<T> out(count);
    uniform_host(std::span<T>(out), low, high, seed);
    return out;
}

/// The host twin of normal().
template <real_element T>
void normal_host(std::span<T> out, double mean = 0.0, double stddev = 1.0, std::uint64_t seed = 0) {
    detail::random_normal_host(out.data(), dtype_of<T>, out.size(), mean, stddev, seed,
                               "normal_host");
}
/// `count` values of normal_host, returned.
template <real_element T>
[[nodiscard]] std::vector<T> normal_host(std::size_t count, double mean = 0.0, double stddev = 1.0,
                                         std::uint64_t seed = 0) {
    std::vector<T> out(count);
    normal_host(std::span<T>(out), mean, stddev, seed);
    return out;
}

/// The host twin of integers().
template <integer_element T>
void integers_host(std::span<T> out, std::int64_t low, std::int64_t high, std::uint64_t seed = 0) {
    detail::random_integers_host(out.data(), dtype_of<T>, out.size(), low, high, seed,
                                 "integers_host");
}
/// `count` values of integers_host, returned.
template <integer_element T>
[[nodiscard]] std::vector<T> integers_host(std::size_t count, std::int64_t low, std::int64_t high,
                                           std::uint64_t seed = 0) {
    std::vector<T> out(count);
    integers_host(std::span<T>(out), low, high, seed);
    return out;
}

}  // namespace kiln::random
