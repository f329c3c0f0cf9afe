// kiln::random on a real GPU: the device arrays equal their host twins bit for bit, normal draws
// included (their log and cos are kiln's own, not the C library's or the device's), and normal
// draws on the device have the moments of their parameters.
#include "tests/support/backend_under_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace {

namespace random = kiln::random;

constexpr std::array<std::int64_t, 3> sizes{1, 3, 1000003};

// The index of the first element whose bits differ, if any.
template <class T>
std::optional<std::size_t> first_difference(const std::vector<T>& a, const std::vector<T>& b) {
    if (a.size() != b.size()) {
        return std::min(a.size(), b.size());
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::bit_cast<std::array<unsigned char, sizeof(T)>>(a[i]) !=
            std::bit_cast<std::array<unsigned char, sizeof(T)>>(b[i])) {
            return i;
        }
    }
    return std::nullopt;
}

template <class T>
void expect_identical(const kiln::ndarray& device, const std::vector<T>& host) {
    const auto values = device.get<T>();
    const auto at = first_difference(values, host);
    EXPECT_FALSE(at.has_value()) << "element " << *at << " of " << host.size() << ": device "
                                 << static_cast<double>(values.at(*at)) << ", host "
                                 << static_cast<double>(host.at(*at));
}

TEST(Random, UniformOnTheDeviceEqualsTheHostBitwise) {
    KILN_REQUIRE_DEVICE();
    for (const std::int64_t n : sizes) {
        SCOPED_TRACE(n);
        const auto count = static_cast<std::size_t>(n);
        expect_identical(random::uniform({n}), random::uniform_host<double>(count));
        expect_identical(random::uniform({n}, -2.5, 7.0, 42, kiln::float64),
                         random::uniform_host<double>(count, -2.5, 7.0, 42));
        expect_identical(random::uniform({n}, 0.0, 1.0, 43, kiln::float32),
                         random::uniform_host<float>(count, 0.0, 1.0, 43));
        expect_identical(random::uniform({n}, -1e3, 1e-3, 44, kiln::float32),
                         random::uniform_host<float>(count, -1e3, 1e-3, 44));
        expect_identical(random::uniform({n}, 0.1, 0.7, 45, kiln::float16),
                         random::uniform_host<kiln::half>(count, 0.1, 0.7, 45));
    }
}

TEST(Random, IntegersOnTheDeviceEqualTheHostBitwise) {
    KILN_REQUIRE_DEVICE();
    constexpr auto lowest = std::numeric_limits<std::int64_t>::min();
    constexpr auto largest = std::numeric_limits<std::int64_t>::max();
    for (const std::int64_t n : sizes) {
        SCOPED_TRACE(n);
        const auto count = static_cast<std::size_t>(n);
        expect_identical(random::integers({n}, -1000, 1000, 7),
                         random::integers_host<std::int64_t>(count, -1000, 1000, 7));
        expect_identical(random::integers({n}, lowest, largest, 8),
                         random::integers_host<std::int64_t>(count, lowest, largest, 8));
        expect_identical(random::integers({n}, -3, 1 << 30, 9, kiln::int32),
                         random::integers_host<std::int32_t>(count, -3, 1 << 30, 9));
        expect_identical(random::integers({n}, 0, 256, 10, kiln::uint8),
                         random::integers_host<std::uint8_t>(count, 0, 256, 10));
        expect_identical(random::integers({n}, 5, largest, 11, kiln::uint64),
                         random::integers_host<std::uint64_t>(count, 5, largest, 11));
    }
}

TEST(Random, NormalOnTheDeviceEqualsTheHostBitwise) {
    KILN_REQUIRE_DEVICE();
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{3}, std::int64_t{100003}}) {
        SCOPED_TRACE(n);
        const auto count = static_cast<std::size_t>(n);
        expect_identical(random::normal({n}), random::normal_host<double>(count));
        expect_identical(random::normal({n}, 3.0, 0.5, 12, kiln::float64),
                         random::normal_host<double>(count, 3.0, 0.5, 12));
        expect_identical(random::normal({n}, -1e6, 1e-3, 13, kiln::float64),
                         random::normal_host<double>(count, -1e6, 1e-3, 13));
        expect_identical(random::normal({n}, -1.0, 2.0, 14, kiln::float32),
                         random::normal_host<float>(count, -1.0, 2.0, 14));
        expect_identical(random::normal({n}, 0.0, 1e30, 15, kiln::float32),
                         random::normal_host<float>(count, 0.0, 1e30, 15));
        expect_identical(random::normal({n}, 0.0, 1.0, 16, kiln::float16),
                         random::normal_host<kiln::half>(count, 0.0, 1.0, 16));
        expect_identical(random::normal({n}, -3.0, 0.25, 17, kiln::float16),
                         random::normal_host<kiln::half>(count, -3.0, 0.25, 17));
    }
}

TEST(Random, NormalOnTheDeviceHasTheMomentsOfItsParameters) {
    KILN_REQUIRE_DEVICE();
    // Normal(2, 3): mean 2, variance 9, fourth central moment 3 * 81. The sample mean lies within
    // 5 standard errors sqrt(9 / n) and the sample variance within 5 sqrt((3 * 81 - 81) / n), but
    // for a chance of 6e-7 each.
    constexpr std::int64_t n = 200000;
    const auto values = random::normal({n}, 2.0, 3.0, 18).get<double>();
    double sum = 0;
    for (const double v : values) {
        sum += v;
    }
    const double mean = sum / n;
    double squares = 0;
    for (const double v : values) {
        squares += (v - mean) * (v - mean);
    }
    EXPECT_NEAR(mean, 2.0, 5 * std::sqrt(9.0 / n));
    EXPECT_NEAR(squares / (n - 1), 9.0, 5 * std::sqrt((3 * 81.0 - 81.0) / n));
}

TEST(Random, ShapesAreFilledInCOrderOnTheGivenStream) {
    KILN_REQUIRE_DEVICE();
    const kiln::Stream stream(/*non_blocking=*/true);
    const auto a = random::uniform({7, 11, 3}, 0.0, 1.0, 5, kiln::float32, stream);
    EXPECT_EQ(a.shape(), (kiln::Shape{7, 11, 3}));
    EXPECT_EQ(a.dtype(), kiln::float32);
    stream.synchronize();
    expect_identical(a, random::uniform_host<float>(231, 0.0, 1.0, 5));

    const auto scalar = random::integers({}, 10, 20, 6, kiln::int16);
    EXPECT_EQ(scalar.ndim(), 0);
    expect_identical(scalar, random::integers_host<std::int16_t>(1, 10, 20, 6));

    const auto empty = random::normal({4, 0});
    EXPECT_EQ(empty.size(), 0);
}

}  // namespace
