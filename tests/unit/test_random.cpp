// kiln::random on the host: Philox4x32 against Random123's known answers, the streams against an
// independent Python implementation of the definition in include/kiln/random.hpp, the
// distributions against their closed-form moments, and the argument checks.
#include "tests/support/expect_error.hpp"

#include <kiln/error.hpp>
#include <kiln/random.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <numeric>
#include <span>
#include <vector>

namespace {

namespace random = kiln::random;
using kiln::test::expect_error;

// Rows of Random123's tests/kat_vectors (github.com/DEShawResearch/random123):
// "philox4x32 R counter[4] key[2] result[4]".
struct KnownAnswer {
    random::PhiloxCounter counter;
    random::PhiloxKey key;
    random::PhiloxCounter ten_rounds;
    random::PhiloxCounter seven_rounds;
};

constexpr std::array<KnownAnswer, 3> known_answers{{
    {{0, 0, 0, 0},
     {0, 0},
     {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
     {0x5f6fb709, 0x0d893f64, 0x4f121f81, 0x4f730a48}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
     {0x5207ddc2, 0x45165e59, 0x4d8ee751, 0x8c52f662}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1},
     {0x4dfccaba, 0x190a87f0, 0xc47362ba, 0xb6b5242a}},
}};

TEST(Random, PhiloxMatchesRandom123KnownAnswers) {
    for (const auto& answer : known_answers) {
        EXPECT_EQ(random::philox4x32(answer.counter, answer.key), answer.ten_rounds);
        EXPECT_EQ(random::philox4x32<7>(answer.counter, answer.key), answer.seven_rounds);
    }
    static_assert(random::philox4x32({0, 0, 0, 0}, {0, 0})[0] == 0x6627e8d5U);
}

// Expected values below come from an independent Python implementation of the definition in
// include/kiln/random.hpp: Python integers for Philox, fractions.Fraction for the exact fma, NumPy
// 1.24's astype (uniform) or struct's "f" and "e" formats (normal) for float32 and float16, and
// mpmath for normal's constants, which it checks against random.hpp's. On 20000 normal draws it
// and normal_host<double> agree bitwise.
constexpr std::uint64_t seed = 0x0123456789abcdef;

TEST(Random, UniformFollowsTheDefinition) {
    // Seed 0, elements 0..2: element 0 is Random123's all-zero known answer, words 0 and 1.
    EXPECT_EQ(
        random::uniform_host<double>(3),
        (std::vector<double>{0x1.c2d38b1acc4fdp-1, 0x1.72c8036fe3932p-2, 0x1.471cca9813ea8p-2}));
    EXPECT_EQ(
        random::uniform_host<double>(6, -2.0, 3.0, seed),
        (std::vector<double>{0x1.dbbf717a9990ap+0, -0x1.9326f18e6c36cp-2, 0x1.165ff089ae0d9p-1,
                             0x1.fae2acb573c96p-2, 0x1.0d40554110698p+1, 0x1.0a8af1665a7eap+1}));
    EXPECT_EQ(random::uniform_host<float>(6, -2.0, 3.0, seed),
              (std::vector<float>{0x1.dbbf7p+0F, -0x1.9326fcp-2F, 0x1.165feep-1F, 0x1.fae2ap-2F,
                                  0x1.0d4054p+1F, 0x1.0a8afp+1F}));
    const auto halves = random::uniform_host<kiln::half>(6, -2.0, 3.0, seed);
    std::vector<std::uint16_t> bits;
    std::transform(halves.begin(), halves.end(), std::back_inserter(bits),
                   [](kiln::half h) { return h.bits; });
    EXPECT_EQ(bits, (std::vector<std::uint16_t>{0x3f6e, 0xb656, 0x3855, 0x37e2, 0x4034, 0x402a}));
}

TEST(Random, IntegersFollowTheDefinition) {
    EXPECT_EQ(random::integers_host<std::int64_t>(6, -1000, 1000, seed),
              (std::vector<std::int64_t>{543, -358, 17, -2, 641, 632}));
    EXPECT_EQ(random::integers_host<std::int32_t>(6, -1000, 1000, seed),
              (std::vector<std::int32_t>{543, -358, 17, -2, 641, 632}));
    EXPECT_EQ(random::integers_host<std::uint8_t>(6, 0, 256, seed),
              (std::vector<std::uint8_t>{197, 82, 130, 127, 210, 209}));
    constexpr auto lowest = std::numeric_limits<std::int64_t>::min();
    constexpr auto largest = std::numeric_limits<std::int64_t>::max();
    EXPECT_EQ(
        random::integers_host<std::int64_t>(6, lowest, largest, seed),
        (std::vector<std::int64_t>{5011574324617814573, -3297183009391111067, 161227166574324126,
                                   -18427116207965969, 5915965965688516792, 5837897185741888393}));
}

TEST(Random, NormalFollowsTheDefinition) {
    EXPECT_EQ(
        random::normal_host<double>(6, 0.0, 1.0, seed),
        (std::vector<double>{-0x1.b4048b5357ef5p+0, -0x1.232645c917b09p-2, 0x1.e5420d092b9b3p-1,
                             0x1.2ca5b34d46641p+0, -0x1.a9c4687ac8a75p-1, 0x1.9252e229c91d9p+0}));
    EXPECT_EQ(
        random::normal_host<double>(6, 10.0, 2.0, seed),
        (std::vector<double>{0x1.a5fdba5654086p+2, 0x1.2dcd9ba36e84fp+3, 0x1.7ca841a125736p+3,
                             0x1.8b296cd351990p+3, 0x1.0ac772f0a6eb1p+3, 0x1.a494b88a72476p+3}));
    EXPECT_EQ(random::normal_host<float>(6, 10.0, 2.0, seed),
              (std::vector<float>{0x1.a5fdbap+2F, 0x1.2dcd9cp+3F, 0x1.7ca842p+3F, 0x1.8b296cp+3F,
                                  0x1.0ac772p+3F, 0x1.a494b8p+3F}));
    const auto halves = random::normal_host<kiln::half>(6, 0.0, 1.0, seed);
    std::vector<std::uint16_t> bits;
    std::transform(halves.begin(), halves.end(), std::back_inserter(bits),
                   [](kiln::half h) { return h.bits; });
    EXPECT_EQ(bits, (std::vector<std::uint16_t>{0xbed0, 0xb48d, 0x3b95, 0x3cb3, 0xbaa7, 0x3e49}));
}

TEST(Random, ElementKDependsOnlyOnSeedAndK) {
    const auto longer = random::uniform_host<double>(1000, 0.0, 1.0, 7);
    const auto shorter = random::uniform_host<double>(10, 0.0, 1.0, 7);
    EXPECT_TRUE(std::equal(shorter.begin(), shorter.end(), longer.begin()));
    const auto other_seed = random::uniform_host<double>(10, 0.0, 1.0, 8);
    EXPECT_NE(other_seed, shorter);
    // The seed's high word is part of the key.
    EXPECT_NE(random::uniform_host<double>(10, 0.0, 1.0, 7 + (std::uint64_t{1} << 32U)), shorter);

    const auto integers = random::integers_host<std::int32_t>(1000, -5, 5, 7);
    const auto prefix = random::integers_host<std::int32_t>(3, -5, 5, 7);
    EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), integers.begin()));

    std::vector<float> span(17);
    random::normal_host(std::span<float>(span), 1.0, 2.0, 7);
    EXPECT_EQ(span, random::normal_host<float>(17, 1.0, 2.0, 7));
}

struct Moments {
    double mean = 0;
    double variance = 0;
};

template <class T>
Moments moments(const std::vector<T>& values) {
    const auto n = static_cast<double>(values.size());
    const double mean =
        std::accumulate(values.begin(), values.end(), 0.0,
                        [](double sum, T v) { return sum + static_cast<double>(v); }) /
        n;
    const double squares =
        std::accumulate(values.begin(), values.end(), 0.0, [mean](double sum, T v) {
            const double d = static_cast<double>(v) - mean;
            return sum + d * d;
        });
    return {mean, squares / (n - 1)};
}

constexpr std::size_t draws = 1'000'000;

// The mean of `draws` values of variance `variance` lies within 5 standard errors of its
// expectation but for a chance of 6e-7; the sample variance of a distribution with fourth central
// moment `mu4` has standard error sqrt((mu4 - variance^2) / draws).
void expect_moments(const Moments& m, double mean, double variance, double mu4) {
    const double n = draws;
    EXPECT_NEAR(m.mean, mean, 5 * std::sqrt(variance / n));
    EXPECT_NEAR(m.variance, variance, 5 * std::sqrt((mu4 - variance * variance) / n));
}

TEST(Random, UniformHasTheMomentsOfItsRange) {
    // Uniform on [a, b): mean (a + b) / 2, variance (b - a)^2 / 12, mu4 (b - a)^4 / 80.
    const auto d = random::uniform_host<double>(draws, -3.0, 5.0, 11);
    expect_moments(moments(d), 1.0, 64.0 / 12, 4096.0 / 80);
    EXPECT_GE(*std::min_element(d.begin(), d.end()), -3.0);
    EXPECT_LT(*std::max_element(d.begin(), d.end()), 5.0);

    const auto f = random::uniform_host<float>(draws, 0.0, 1.0, 12);
    expect_moments(moments(f), 0.5, 1.0 / 12, 1.0 / 80);
    EXPECT_GE(*std::min_element(f.begin(), f.end()), 0.0F);
    EXPECT_LT(*std::max_element(f.begin(), f.end()), 1.0F);

    // float16 draws take values k / 2^11, a discrete uniform of variance (1 - 2^-22) / 12.
    const auto h = random::uniform_host<kiln::half>(draws, 0.0, 1.0, 13);
    std::vector<float> as_float(h.begin(), h.end());
    expect_moments(moments(as_float), 0.5 - 0x1p-12, (1 - 0x1p-22) / 12, 1.0 / 80);
    EXPECT_GE(*std::min_element(as_float.begin(), as_float.end()), 0.0F);
    EXPECT_EQ(*std::max_element(as_float.begin(), as_float.end()), 1.0F - 0x1p-11F);
}

TEST(Random, NormalHasTheMomentsOfItsParameters) {
    // Normal(mu, sigma): variance sigma^2, mu4 3 sigma^4; a share erf(1 / sqrt(2)) lies within
    // one sigma.
    const auto d = random::normal_host<double>(draws, 2.0, 3.0, 21);
    expect_moments(moments(d), 2.0, 9.0, 3 * 81.0);
    const auto within =
        std::count_if(d.begin(), d.end(), [](double v) { return std::abs(v - 2.0) < 3.0; });
    const double p = std::erf(1 / std::sqrt(2.0));
    EXPECT_NEAR(static_cast<double>(within) / draws, p, 5 * std::sqrt(p * (1 - p) / draws));

    const auto f = random::normal_host<float>(draws, 0.0, 1.0, 22);
    expect_moments(moments(f), 0.0, 1.0, 3.0);
    EXPECT_EQ(random::normal_host<double>(5, 4.5, 0.0, 23), std::vector<double>(5, 4.5));
}

TEST(Random, IntegersAreUniformOverTheirRange) {
    // Discrete uniform on [a, b) with m = b - a values: mean (a + b - 1) / 2, variance
    // (m^2 - 1) / 12; each value's count is binomial(draws, 1 / m).
    const auto v = random::integers_host<std::int32_t>(draws, -4, 6, 31);
    const double m = 10;
    expect_moments(moments(v), 0.5, (m * m - 1) / 12, (m * m - 1) * (3 * m * m - 7) / 240);
    for (std::int32_t value = -4; value < 6; ++value) {
        const auto count = std::count(v.begin(), v.end(), value);
        EXPECT_NEAR(static_cast<double>(count), draws / m, 5 * std::sqrt(draws / m * (1 - 1 / m)))
            << value;
    }
    EXPECT_EQ(*std::min_element(v.begin(), v.end()), -4);
    EXPECT_EQ(*std::max_element(v.begin(), v.end()), 5);

    const auto single = random::integers_host<std::uint16_t>(100, 7, 8, 32);
    EXPECT_EQ(single, std::vector<std::uint16_t>(100, 7));
}

TEST(Random, RejectsBadArguments) {
    expect_error<kiln::Error>([] { static_cast<void>(random::uniform_host<double>(1, 1.0, 1.0)); },
                              "kiln: uniform_host: low must be less than high (got low=1, high=1)");
    expect_error<kiln::Error>(
        [] { static_cast<void>(random::uniform_host<float>(1, 0.0, -0.5)); },
        "kiln: uniform_host: low must be less than high (got low=0, high=-0.5)");
    expect_error<kiln::Error>(
        [] {
            static_cast<void>(
                random::uniform_host<double>(1, 0.0, std::numeric_limits<double>::infinity()));
        },
        "kiln: uniform_host: low and high must be finite (got low=0, high=inf)");
    expect_error<kiln::Error>(
        [] { static_cast<void>(random::uniform_host<double>(1, -1e308, 1e308)); },
        "kiln: uniform_host: high - low must be finite in float64 (got low=-1e+308, "
        "high=1e+308)");
    expect_error<kiln::Error>([] { static_cast<void>(random::normal_host<double>(1, 0.0, -0.1)); },
                              "kiln: normal_host: stddev must be non-negative (got -0.1)");
    expect_error<kiln::Error>(
        [] { static_cast<void>(random::normal_host<double>(1, std::nan(""), 1.0)); },
        "kiln: normal_host: mean and stddev must be finite (got mean=nan, stddev=1)");
    expect_error<kiln::Error>(
        [] { static_cast<void>(random::integers_host<std::int64_t>(1, 3, 3)); },
        "kiln: integers_host: low must be less than high (got low=3, high=3)");
    expect_error<kiln::TypeError>(
        [] { static_cast<void>(random::integers_host<std::uint8_t>(1, 0, 257)); },
        "kiln: integers_host: high=257 is out of bounds for uint8; high must be at most 256");
    expect_error<kiln::TypeError>(
        [] { static_cast<void>(random::integers_host<std::int8_t>(1, -129, 0)); },
        "kiln: integers_host: low=-129 is out of bounds for int8; low must be at least -128");
    expect_error<kiln::TypeError>(
        [] { static_cast<void>(random::integers_host<std::uint64_t>(1, -1, 5)); },
        "kiln: integers_host: low=-1 is out of bounds for uint64; low must be at least 0");
}

// The device functions check their arguments before touching a device, so no GPU is needed here.
TEST(Random, DeviceFunctionsRejectBadArgumentsFirst) {
    expect_error<kiln::TypeError>(
        [] { static_cast<void>(random::uniform({3}, 0.0, 1.0, 0, kiln::int32)); },
        "kiln: uniform: dtype int32 is not supported; expected float16, float32 or float64");
    expect_error<kiln::TypeError>(
        [] { static_cast<void>(random::normal({3}, 0.0, 1.0, 0, kiln::complex64)); },
        "kiln: normal: dtype complex64 is not supported; expected float16, float32 or float64");
    expect_error<kiln::TypeError>(
        [] { static_cast<void>(random::integers({3}, 0, 2, 0, kiln::bool_)); },
        "kiln: integers: dtype bool is not supported; expected a signed or unsigned integer "
        "dtype");
    expect_error<kiln::TypeError>(
        [] { static_cast<void>(random::integers({3}, 0, 2, 0, kiln::float32)); },
        "kiln: integers: dtype float32 is not supported; expected a signed or unsigned integer "
        "dtype");
    expect_error<kiln::Error>([] { static_cast<void>(random::uniform({3}, 2.0, 1.0)); },
                              "kiln: uniform: low must be less than high (got low=2, high=1)");
    expect_error<kiln::Error>([] { static_cast<void>(random::normal({3}, 0.0, -1.0)); },
                              "kiln: normal: stddev must be non-negative (got -1)");
    expect_error<kiln::TypeError>(
        [] {
            static_cast<void>(
                random::integers({3}, 0, (std::int64_t{1} << 31) + 1, 0, kiln::int32));
        },
        "kiln: integers: high=2147483649 is out of bounds for int32; high must be at most "
        "2147483648");
    expect_error<kiln::ShapeError>(
        [] { static_cast<void>(random::uniform({-1})); },
        "kiln: uniform: negative dimensions are not allowed in shape (-1,)");
}

}  // namespace
