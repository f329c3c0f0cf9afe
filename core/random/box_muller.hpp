// kiln's own float64 log and cos(2 pi u) for the Box-Muller step of normal draws, as
// include/kiln/random.hpp specifies them. They use only +, -, *, /, fma, frexp and rint, which
// IEEE 754 rounds correctly (or which are exact) on every platform, where the C library's and
// each GPU's log and cos differ in the last place: so a normal draw has the same bits on the host,
// in the host twin and on every GPU. Every product that feeds a sum is an explicit fma, so that
// no compiler contraction can change a value.
//
// The coefficients live only here: the host functions below read them, and source()
// writes them, as macros, before the device functions (core/codegen/device/kiln/box_muller.h),
// which evaluate in the same order.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <string>

namespace kiln::detail::box_muller {

// ln 2 rounded to 40 significant bits (k * ln2_hi is exact for |k| < 2^13), and the rest of ln 2
// rounded to double.
inline constexpr double ln2_hi = 0x1.62e42fefa4p-1;
inline constexpr double ln2_lo = -0x1.8432a1b0e2634p-43;
// sqrt(1/2) rounded: log's reduced argument lies in [sqrt_half, 2 sqrt_half).
inline constexpr double sqrt_half = 0x1.6a09e667f3bcdp-1;
// 2 pi rounded, and the rest of 2 pi rounded.
inline constexpr double two_pi_hi = 0x1.921fb54442d18p+2;
inline constexpr double two_pi_lo = 0x1.1a62633145c07p-52;

// The coefficients, each the nearest double to the exact value (computed with mpmath):
// log_series[i] = 2 / (2i + 3), the atanh series 2 atanh(s) = 2s + s w sum_i log_series[i] w^i
// with w = s^2, to s^21.
inline constexpr std::array<double, 10> log_series{
    0x1.5555555555555p-1, 0x1.999999999999ap-2, 0x1.2492492492492p-2, 0x1.c71c71c71c71cp-3,
    0x1.745d1745d1746p-3, 0x1.3b13b13b13b14p-3, 0x1.1111111111111p-3, 0x1.e1e1e1e1e1e1ep-4,
    0x1.af286bca1af28p-4, 0x1.8618618618618p-4};
// cos_series[i] = (-1)^i (2 pi)^(2i) / (2i)!: cos(2 pi r) to r^16.
inline constexpr std::array<double, 9> cos_series{0x1p+0,
                                                  -0x1.3bd3cc9be45dep+4,
                                                  0x1.03c1f081b5ac4p+6,
                                                  -0x1.55d3c7e3cbffap+6,
                                                  0x1.e1f506891babbp+5,
                                                  -0x1.a6d1f2a204a8cp+4,
                                                  0x1.f9d38a3763cc3p+2,
                                                  -0x1.b6e24f44b128fp+0,
                                                  0x1.20c62c2f2d7f5p-2};
// sin_series[i] = (-1)^(i+1) (2 pi)^(2i+3) / (2i+3)!: the terms of sin(2 pi r) from r^3 to r^17
// (its r^1 term is 2 pi, two_pi_hi + two_pi_lo).
inline constexpr std::array<double, 8> sin_series{
    -0x1.4abbce625be53p+5, 0x1.466bc6775aae2p+6, -0x1.32d2cce62bd86p+6, 0x1.50783487ee782p+5,
    -0x1.e3074fde8871fp+3, 0x1.e8f434d018d63p+1, -0x1.6fadb9f155744p-1, 0x1.aaec32af93359p-4};

// The polynomial with coefficients c (c[0] the constant term) at w, by Horner's rule from the
// highest term: p = c[n-1], then p = fma(p, w, c[i]) for i = n-2 down to 0.
template <std::size_t N>
double horner(const std::array<double, N>& c, double w) {
    double p = c.back();
    for (auto coefficient = c.rbegin() + 1; coefficient != c.rend(); ++coefficient) {
        p = std::fma(p, w, *coefficient);
    }
    return p;
}

// log(x) for a positive normal x, within 1 ulp: x = 2^k m with m in [sqrt(1/2), sqrt(2)), exactly,
// and log(m) = log(1 + f) = 2 atanh(f / (2 + f)), arranged as fdlibm's log is so that f itself
// is the leading term.
inline double log(double x) {
    int e = 0;
    double m = std::frexp(x, &e);
    if (m < sqrt_half) {
        m = m + m;
        e = e - 1;
    }
    const double k = e;
    const double f = m - 1.0;
    const double s = f / (2.0 + f);
    const double w = s * s;
    const double h = 0.5 * f;
    const double t = std::fma(s, std::fma(h, f, w * horner(log_series, w)), k * ln2_lo);
    return std::fma(k, ln2_hi, -(std::fma(h, f, -t) - f));
}

// cos(2 pi u) for u in [0, 1), within about 1 ulp: u = q/4 + r exactly with r in [-1/8, 1/8],
// then +-cos(2 pi r) or +-sin(2 pi r) by the quadrant q mod 4.
inline double cos_two_pi(double u) {
    const double q = std::rint(4.0 * u);
    const double r = std::fma(q, -0.25, u);
    const double w = r * r;
    const double cos_r = horner(cos_series, w);
    const double sin_r = std::fma(two_pi_hi, r, r * std::fma(horner(sin_series, w), w, two_pi_lo));
    switch (static_cast<int>(q) & 3) {
        case 0:
            return cos_r;
        case 1:
            return -sin_r;
        case 2:
            return -cos_r;
        default:
            return sin_r;
    }
}

// The same two functions as device code, for every dialect: `double kiln_box_muller_log(double)`
// and `double kiln_box_muller_cos_two_pi(double)`.
[[nodiscard]] std::string source();

}  // namespace kiln::detail::box_muller
