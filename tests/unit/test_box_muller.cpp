// kiln's own log and cos(2 pi u) behind normal draws (core/random/box_muller.hpp): within a
// couple of ulp of the C library's long double log, cos and sin on a million points of the grids
// that normal draws use, exact where the answer is, and built from the doubles nearest their
// coefficients' definitions.
#include "core/random/box_muller.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

namespace {

namespace box_muller = kiln::detail::box_muller;

constexpr long double two_pi = 2 * std::numbers::pi_v<long double>;

// |value - reference| in units of the last place of doubles near `reference`; for a reference of
// 0, 0 or infinity.
double ulps(double value, long double reference) {
    if (reference == 0) {
        return value == 0 ? 0.0 : std::numeric_limits<double>::infinity();
    }
    const double ulp = std::ldexp(1.0, std::ilogb(static_cast<double>(reference)) - 52);
    return static_cast<double>(std::abs(value - reference) / ulp);
}

// The worst error of `f` against `reference` over `points`, and where.
struct Worst {
    double ulps = 0;
    double at = 0;
};
template <class F, class Reference>
Worst worst_error(const std::vector<double>& points, F f, Reference reference) {
    Worst worst;
    for (const double x : points) {
        const double error = ulps(f(x), reference(x));
        if (error > worst.ulps) {
            worst = {error, x};
        }
    }
    return worst;
}

// cos(2 pi j 2^-53), with the argument reduced exactly in integers: j = q 2^51 + i, |i| <= 2^50.
long double cos_two_pi_reference(double u) {
    const auto j = static_cast<std::int64_t>(std::ldexp(u, 53));
    const std::int64_t q = (j + (std::int64_t{1} << 50)) >> 51;
    const long double x = two_pi * std::ldexp(static_cast<long double>(j - (q << 51)), -53);
    switch (q & 3) {
        case 0:
            return std::cos(x);
        case 1:
            return -std::sin(x);
        case 2:
            return -std::cos(x);
        default:
            return std::sin(x);
    }
}

TEST(BoxMuller, LogIsWithinAnUlpOnTheGridOfOneMinusU1) {
    // x = 1 - u1 is a multiple of 2^-53 in [2^-53, 1]: half the points uniform in u1, as draws
    // are, half spread over every binade down to 2^-53.
    std::mt19937_64 bits(1);
    std::vector<double> points;
    for (int i = 0; i < (1 << 19); ++i) {
        points.push_back(1.0 - std::ldexp(static_cast<double>(bits() >> 11U), -53));
        const auto length = static_cast<unsigned>(1 + bits() % 53);
        const std::uint64_t n = (bits() >> (64 - length)) | (std::uint64_t{1} << (length - 1));
        points.push_back(std::ldexp(static_cast<double>(n), -53));
    }
    points.insert(points.end(), {0x1p-53, 0x1p-52, 1 - 0x1p-53, 0.5, box_muller::sqrt_half,
                                 std::nextafter(box_muller::sqrt_half, 0.0)});
    const Worst worst = worst_error(points, box_muller::log,
                                    [](double x) { return std::log(static_cast<long double>(x)); });
    EXPECT_LT(worst.ulps, 1.0) << "at x = " << std::hexfloat << worst.at;
    // u1 = 0: log(1) is +0, exactly.
    EXPECT_EQ(box_muller::log(1.0), 0.0);
    EXPECT_FALSE(std::signbit(box_muller::log(1.0)));
}

TEST(BoxMuller, CosTwoPiIsWithinAnUlpOrTwoOnTheGridOfU2) {
    // u2 is a multiple of 2^-53 in [0, 1): uniform points, then points near each multiple of 1/8,
    // where the quadrant or the polynomial changes.
    std::mt19937_64 bits(2);
    std::vector<double> points;
    for (int i = 0; i < (1 << 19); ++i) {
        points.push_back(std::ldexp(static_cast<double>(bits() >> 11U), -53));
    }
    for (std::int64_t eighth = 0; eighth <= 8; ++eighth) {
        for (std::int64_t step = -2000; step <= 2000; ++step) {
            const std::int64_t j = (eighth << 50) + step * (step % 2 == 0 ? 1 : 1 << 20);
            if (j >= 0 && j < (std::int64_t{1} << 53)) {
                points.push_back(std::ldexp(static_cast<double>(j), -53));
            }
        }
    }
    const Worst worst = worst_error(points, box_muller::cos_two_pi, cos_two_pi_reference);
    EXPECT_LT(worst.ulps, 1.5) << "at u = " << std::hexfloat << worst.at;
    // The quadrant boundaries are exact; the largest u2, 1 - 2^-53, gives 1.
    EXPECT_EQ(box_muller::cos_two_pi(0.0), 1.0);
    EXPECT_EQ(box_muller::cos_two_pi(0.25), 0.0);
    EXPECT_EQ(box_muller::cos_two_pi(0.5), -1.0);
    EXPECT_EQ(box_muller::cos_two_pi(0.75), 0.0);
    EXPECT_EQ(box_muller::cos_two_pi(1 - 0x1p-53), 1.0);
}

TEST(BoxMuller, CoefficientsAreTheDoublesNearestTheirDefinitions) {
    for (std::size_t i = 0; i < box_muller::log_series.size(); ++i) {
        EXPECT_EQ(box_muller::log_series[i], 2.0 / static_cast<double>(2 * i + 3)) << i;
    }
    // (2 pi)^n / n! in long double is within a few 2^-64 of the truth: a double within 0.51 ulp
    // of it is the nearest.
    const auto expect_nearest = [](double coefficient, long double exact) {
        EXPECT_LE(ulps(coefficient, exact), 0.51) << std::hexfloat << coefficient;
    };
    long double term = 1;  // (2 pi)^n / n!
    for (int n = 0; n <= 17; ++n) {
        if (n > 0) {
            term = term * two_pi / n;
        }
        const long double sign = (n / 2) % 2 == 0 ? 1 : -1;
        if (n % 2 == 0) {
            expect_nearest(box_muller::cos_series.at(static_cast<std::size_t>(n / 2)), sign * term);
        } else if (n >= 3) {
            expect_nearest(box_muller::sin_series.at(static_cast<std::size_t>((n - 3) / 2)),
                           sign * term);
        }
    }
    expect_nearest(box_muller::two_pi_hi, two_pi);
    expect_nearest(box_muller::sqrt_half, std::sqrt(0.5L));
    // ln2_hi has 40 significant bits; the two parts sum to ln 2 within long double's precision.
    EXPECT_EQ(std::ldexp(box_muller::ln2_hi, 40), std::round(std::ldexp(box_muller::ln2_hi, 40)));
    const long double ln2_rest = std::numbers::ln2_v<long double> - box_muller::ln2_hi;
    EXPECT_NEAR(static_cast<double>(ln2_rest - box_muller::ln2_lo), 0.0, 0x1p-62);
    const long double two_pi_rest = two_pi - box_muller::two_pi_hi;
    EXPECT_NEAR(static_cast<double>(two_pi_rest - box_muller::two_pi_lo), 0.0, 0x1p-60);
}

}  // namespace
