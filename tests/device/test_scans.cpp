// cumsum and cumprod on a GPU against closed forms and host loops: long arrays over many tiles,
// each way an axis can lie in memory (rows, wide columns, few long columns), the flattened
// array, NumPy's dtypes, `out` in place and strided, and the errors.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

namespace {

using kiln::ndarray;
using kiln::Shape;

// i (i + 1) / 2, the cumulative sum of 0..i.
std::int64_t triangle(std::int64_t i) {
    return i * (i + 1) / 2;
}

TEST(Scans, LongCumsumsAcrossManyTilesAreExact) {
    KILN_REQUIRE_DEVICE();
    for (const std::int64_t n : {std::int64_t{10'000'000}, std::int64_t{10'000'123}}) {
        SCOPED_TRACE(n);
        const auto sums = kiln::cumsum(kiln::arange(0, n, 1, kiln::float64)).get<double>();
        ASSERT_EQ(sums.size(), static_cast<std::size_t>(n));
        std::int64_t wrong = 0;
        for (std::int64_t i = 0; i < n; ++i) {
            wrong += sums[static_cast<std::size_t>(i)] != static_cast<double>(triangle(i)) ? 1 : 0;
        }
        EXPECT_EQ(wrong, 0);
    }
    // int32 widens to int64, as NumPy's sum does.
    const ndarray ints = kiln::cumsum(kiln::arange(std::int64_t{0}, 3'000'001, 1, kiln::int32));
    EXPECT_EQ(ints.dtype(), kiln::int64);
    const auto values = ints.get<std::int64_t>();
    EXPECT_EQ(values[2'999'999], triangle(2'999'999));
    EXPECT_EQ(values.back(), triangle(3'000'000));
    // float32 ones count exactly up to 2^24.
    const auto ones = kiln::cumsum(kiln::ones({5'000'001}, kiln::float32)).get<float>();
    for (std::size_t i = 0; i < ones.size(); i += 4099) {
        ASSERT_EQ(ones[i], static_cast<float>(i + 1)) << i;
    }
    EXPECT_EQ(ones.back(), 5'000'001.0F);
}

// Past 2^24 a float32 run of ones stalls if added in one sequence; combined over tiles (GPU) or
// chunks (host), as CuPy's is, every count stays within float32's rounding. cumprod crosses
// chunks too.
TEST(Scans, LongFloat32RowsStayAccurateAndProductsCrossChunks) {
    KILN_REQUIRE_DEVICE();
    const std::int64_t n = 30'000'001;
    const auto ones = kiln::cumsum(kiln::ones({n}, kiln::float32)).get<float>();
    for (std::size_t i = 0; i < ones.size(); i += 999'983) {
        ASSERT_NEAR(ones[i], static_cast<double>(i + 1), 1e-6 * static_cast<double>(i + 1)) << i;
    }
    EXPECT_NEAR(ones.back(), static_cast<double>(n), 1e-6 * static_cast<double>(n));

    std::vector<double> signs(200'003, 1.0);
    signs[131'072] = -1.0;
    signs[199'999] = -2.0;
    const auto products = kiln::cumprod(kiln::array(signs)).get<double>();
    for (std::size_t i = 0; i < products.size(); ++i) {
        const double want = i < 131'072 ? 1.0 : i < 199'999 ? -1.0 : 2.0;
        ASSERT_EQ(products[i], want) << i;
    }
}

// x[r, j] = r * columns + j over `shape`, scanned along `axis`, against a host loop.
void expect_scan_along(const Shape& shape, std::int64_t signed_axis) {
    SCOPED_TRACE(kiln::to_string(shape) + " along " + std::to_string(signed_axis));
    const auto ndim = static_cast<std::int64_t>(shape.size());
    const std::int64_t axis = signed_axis < 0 ? signed_axis + ndim : signed_axis;
    std::int64_t size = 1;
    for (const auto extent : shape) {
        size *= extent;
    }
    const ndarray x = kiln::arange(0, size, 1, kiln::int64).reshape(shape);
    const auto got = kiln::cumsum(x, {.axis = signed_axis}).get<std::int64_t>();
    std::int64_t outer = 1;
    std::int64_t inner = 1;
    for (std::int64_t d = 0; d < ndim; ++d) {
        (d < axis ? outer : inner) *= d == axis ? 1 : shape[static_cast<std::size_t>(d)];
    }
    const std::int64_t length = shape[static_cast<std::size_t>(axis)];
    std::int64_t wrong = 0;
    for (std::int64_t o = 0; o < outer; ++o) {
        for (std::int64_t k = 0; k < inner; ++k) {
            std::int64_t run = 0;
            for (std::int64_t j = 0; j < length; ++j) {
                const std::int64_t at = (o * length + j) * inner + k;
                run += at;
                wrong += got[static_cast<std::size_t>(at)] != run ? 1 : 0;
            }
        }
    }
    EXPECT_EQ(wrong, 0);
}

TEST(Scans, EveryWayAnAxisLiesInMemory) {
    KILN_REQUIRE_DEVICE();
    expect_scan_along({1000, 5000}, 1);    // rows of several tiles each
    expect_scan_along({3000, 7}, 1);       // many short rows
    expect_scan_along({300, 100'000}, 0);  // wide: a thread per column
    expect_scan_along({1000, 5000}, 0);    // few long columns: moved last and back
    expect_scan_along({4, 50, 30}, 1);     // a middle axis
    expect_scan_along({4, 50, 30}, -3);
}

TEST(Scans, FlattenedNonContiguousAndZeroSize) {
    KILN_REQUIRE_DEVICE();
    const ndarray m = kiln::array(std::vector<double>{1, 2, 3, 4, 5, 6}, Shape{2, 3});
    EXPECT_EQ(kiln::cumsum(m).shape(), (Shape{6}));
    EXPECT_EQ(kiln::cumsum(m).get<double>(), (std::vector<double>{1, 3, 6, 10, 15, 21}));
    // The transpose flattens as [1, 4, 2, 5, 3, 6].
    EXPECT_EQ(kiln::cumsum(m.transpose()).get<double>(),
              (std::vector<double>{1, 5, 7, 12, 15, 21}));
    EXPECT_EQ(kiln::cumsum(m.transpose(), {.axis = 1}).get<double>(),
              (std::vector<double>{1, 5, 2, 7, 3, 9}));
    EXPECT_EQ(kiln::cumprod(m[{kiln::Slice{}, kiln::Slice{0, 3, 2}}], {.axis = 1}).get<double>(),
              (std::vector<double>{1, 3, 4, 24}));
    EXPECT_EQ(kiln::cumsum(kiln::zeros({0})).shape(), (Shape{0}));
    EXPECT_EQ(kiln::cumsum(kiln::zeros({3, 0}), {.axis = 1}).shape(), (Shape{3, 0}));
    EXPECT_EQ(kiln::cumsum(kiln::full({}, 2.5)).get<double>(), (std::vector<double>{2.5}));
}

TEST(Scans, DtypesFollowNumPy) {
    KILN_REQUIRE_DEVICE();
    const ndarray flags = kiln::array(std::vector<bool>{true, false, true, true});
    EXPECT_EQ(kiln::cumsum(flags).dtype(), kiln::int64);
    EXPECT_EQ(kiln::cumsum(flags).get<std::int64_t>(), (std::vector<std::int64_t>{1, 1, 2, 3}));
    const ndarray small = kiln::array(std::vector<std::int8_t>{100, 100, -3});
    EXPECT_EQ(kiln::cumprod(small).get<std::int64_t>(),
              (std::vector<std::int64_t>{100, 10000, -30000}));
    // An explicit narrow dtype wraps, as NumPy's does.
    EXPECT_EQ(kiln::cumsum(small, {.dtype = kiln::int8}).get<std::int8_t>(),
              (std::vector<std::int8_t>{100, -56, -59}));
    EXPECT_EQ(kiln::cumsum(kiln::array(std::vector<std::uint16_t>{1, 2})).dtype(), kiln::uint64);
    // float16 accumulates in float32: 4096 ones reach 4096, where float16 sums stall at 2048.
    const ndarray halves = kiln::cumsum(kiln::full({4096}, kiln::half(1.0F), kiln::float16));
    EXPECT_EQ(halves.dtype(), kiln::float16);
    EXPECT_EQ(static_cast<float>(halves.get<kiln::half>().back()), 4096.0F);

    using C = std::complex<double>;
    const std::vector<C> z{{1, 2}, {-3, 0.5}, {0.25, -1}, {2, 2}};
    std::vector<C> sums(z.size());
    std::vector<C> products(z.size());
    C sum = 0;
    C product = 1;
    for (std::size_t i = 0; i < z.size(); ++i) {
        sums[i] = sum += z[i];
        products[i] = product *= z[i];
    }
    EXPECT_EQ(kiln::cumsum(kiln::array(z)).get<C>(), sums);
    const auto got = kiln::cumprod(kiln::array(z)).get<C>();
    for (std::size_t i = 0; i < z.size(); ++i) {
        EXPECT_NEAR(std::abs(got[i] - products[i]), 0, 1e-12) << i;
    }

    // cumprod over many tiles: 1 + 1e-7 to the power i + 1.
    const std::int64_t n = 3'000'000;
    const auto powers = kiln::cumprod(kiln::full({n}, 1.0 + 1e-7, kiln::float64)).get<double>();
    for (std::int64_t i = 0; i < n; i += 9973) {
        const double expected = std::pow(1.0 + 1e-7, static_cast<double>(i + 1));
        ASSERT_NEAR(powers[static_cast<std::size_t>(i)], expected, 1e-9 * expected) << i;
    }
}

TEST(Scans, OutInPlaceAndStrided) {
    KILN_REQUIRE_DEVICE();
    const std::int64_t n = 1'000'000;
    ndarray a = kiln::arange(0, n, 1, kiln::float64);
    const ndarray same = kiln::cumsum(a, {.out = a});
    EXPECT_EQ(same.data(), a.data());
    const auto values = a.get<double>();
    EXPECT_EQ(values[12345], static_cast<double>(triangle(12345)));
    EXPECT_EQ(values.back(), static_cast<double>(triangle(n - 1)));

    // Into the input shifted by one element: out[i] = cumsum(x[1:])[i] over many tiles, so later
    // tiles must not read what earlier ones wrote.
    const auto before = kiln::arange(0, n, 1, kiln::float64).get<double>();
    ndarray shifted = kiln::arange(0, n, 1, kiln::float64);
    (void)kiln::cumsum(shifted[{kiln::Slice{1, n}}], {.out = shifted[{kiln::Slice{0, n - 1}}]});
    const auto after = shifted.get<double>();
    double running = 0;
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i + 1 < n; ++i) {
        running += before[static_cast<std::size_t>(i + 1)];
        wrong += after[static_cast<std::size_t>(i)] != running ? 1 : 0;
    }
    EXPECT_EQ(wrong, 0);
    EXPECT_EQ(after.back(), static_cast<double>(n - 1));

    // Into the second column of a (3, 2) float32 array: int64 results cast at same_kind.
    ndarray wide = kiln::zeros({3, 2}, kiln::float32);
    const ndarray column = wide[{kiln::Slice{}, 1}];
    (void)kiln::cumsum(kiln::array(std::vector<std::int32_t>{4, 5, 6}), {.out = column});
    EXPECT_EQ(wide.get<float>(), (std::vector<float>{0, 4, 0, 9, 0, 15}));
}

TEST(Scans, BadArgumentsAreClearErrors) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = kiln::zeros({2, 3});
    EXPECT_THROW((void)kiln::cumsum(a, {.axis = 2}), kiln::IndexError);
    kiln::test::expect_error<kiln::ShapeError>(
        [&] {
            (void)kiln::cumsum(a, {.axis = 0, .out = kiln::zeros({3, 2})});
        },
        "kiln: cumsum: out has shape (3, 2); the result's shape is (2, 3)");
    kiln::test::expect_error<kiln::TypeError>(
        [&] { (void)kiln::cumprod(a, {.out = kiln::zeros({6}, kiln::int32)}); },
        "kiln: cumprod: out has dtype int32; the result's dtype float64 does not cast to it "
        "under 'same_kind' casting");
    kiln::test::expect_error<kiln::TypeError>(
        [&] { (void)kiln::cumsum(a, {.dtype = kiln::int64}); },
        "kiln: cumsum: the array's dtype float64 cannot be cast to the requested dtype int64 "
        "under 'same_kind' casting");
}

}  // namespace
