// kiln's reductions on a GPU against host loops: axes, keepdims, the dtypes NumPy gives (int64
// sums of small integers, float64 means of integers, float16 accumulated in float32), NaN in max
// and min, empty reductions, `out` and `dtype`, non-contiguous inputs and complex sums.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace {

using kiln::ndarray;
using kiln::Shape;

// values[i] = (i * 7) % 11 - 5 over a (3, 4, 5) array.
std::vector<double> cube_values() {
    std::vector<double> values(60);
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = static_cast<double>(static_cast<int>(i * 7 % 11) - 5);
    }
    return values;
}

// The host's sum of `values` (shape 3x4x5) over the axes set in `reduced`, in C order of the rest.
std::vector<double> host_sum(const std::vector<double>& values, std::array<bool, 3> reduced) {
    const std::array<std::size_t, 3> extent{3, 4, 5};
    std::array<std::size_t, 3> kept{};
    std::size_t count = 1;
    for (int d = 0; d < 3; ++d) {
        kept[d] = reduced[d] ? 1 : extent[d];
        count *= kept[d];
    }
    std::vector<double> out(count, 0.0);
    for (std::size_t i = 0; i < 3; ++i) {
        for (std::size_t j = 0; j < 4; ++j) {
            for (std::size_t k = 0; k < 5; ++k) {
                const std::size_t o =
                    ((reduced[0] ? 0 : i) * kept[1] + (reduced[1] ? 0 : j)) * kept[2] +
                    (reduced[2] ? 0 : k);
                out[o] += values[(i * 4 + j) * 5 + k];
            }
        }
    }
    return out;
}

TEST(Reductions, SumOverEveryAxisSet) {
    KILN_REQUIRE_DEVICE();
    const std::vector<double> values = cube_values();
    const ndarray a = kiln::array(values, Shape{3, 4, 5});
    EXPECT_EQ(kiln::sum(a).get<double>(), host_sum(values, {true, true, true}));
    EXPECT_EQ(kiln::sum(a).ndim(), 0);
    EXPECT_EQ(kiln::sum(a, {.axis = 0}).get<double>(), host_sum(values, {true, false, false}));
    EXPECT_EQ(kiln::sum(a, {.axis = 1}).shape(), (Shape{3, 5}));
    EXPECT_EQ(kiln::sum(a, {.axis = 1}).get<double>(), host_sum(values, {false, true, false}));
    EXPECT_EQ(kiln::sum(a, {.axis = -1}).get<double>(), host_sum(values, {false, false, true}));
    const ndarray kept = kiln::sum(a, {.axis = {0, 2}, .keepdims = true});
    EXPECT_EQ(kept.shape(), (Shape{1, 4, 1}));
    EXPECT_EQ(kept.get<double>(), host_sum(values, {true, false, true}));
    // A transposed view reduces by its own axes.
    EXPECT_EQ(kiln::sum(a.transpose(), {.axis = 2}).get<double>(),
              kiln::sum(a, {.axis = 0}).transpose().copy().get<double>());
}

TEST(Reductions, DtypesFollowNumPy) {
    KILN_REQUIRE_DEVICE();
    const ndarray small = kiln::full({100}, std::int8_t{127}, kiln::int8);
    const ndarray total = kiln::sum(small);
    EXPECT_EQ(total.dtype(), kiln::int64);
    EXPECT_EQ(total.get<std::int64_t>(), (std::vector<std::int64_t>{12700}));
    EXPECT_EQ(kiln::sum(kiln::full({3}, std::uint8_t{200}, kiln::uint8)).dtype(), kiln::uint64);
    EXPECT_EQ(kiln::sum(kiln::array(std::vector<bool>{true, false, true})).get<std::int64_t>(),
              (std::vector<std::int64_t>{2}));
    // float16 accumulates in float32: 4096 ones sum to 4096 (float16 steps are 2 above 2048).
    const ndarray halves = kiln::full({4096}, kiln::half(1.0F), kiln::float16);
    const ndarray half_sum = kiln::sum(halves);
    EXPECT_EQ(half_sum.dtype(), kiln::float16);
    EXPECT_EQ(static_cast<float>(half_sum.get<kiln::half>()[0]), 4096.0F);
    const ndarray ints = kiln::array(std::vector<std::int32_t>{1, 2, 3, 4});
    EXPECT_EQ(kiln::mean(ints).dtype(), kiln::float64);
    EXPECT_EQ(kiln::mean(ints).get<double>(), (std::vector<double>{2.5}));
    EXPECT_EQ(kiln::prod(ints).get<std::int64_t>(), (std::vector<std::int64_t>{24}));
    EXPECT_EQ(kiln::sum(ints, {.dtype = kiln::float32}).get<float>(), (std::vector<float>{10}));
    EXPECT_EQ(
        kiln::count_nonzero(kiln::array(std::vector<double>{0, 1.5, 0, -2})).get<std::int64_t>(),
        (std::vector<std::int64_t>{2}));
}

TEST(Reductions, MaxMinPropagateNaNAndNeedAnElement) {
    KILN_REQUIRE_DEVICE();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const ndarray m = kiln::array(std::vector<double>{1, nan, 3, -4, 5, 6}, Shape{2, 3});
    const auto max_rows = kiln::max(m, {.axis = 1}).get<double>();
    EXPECT_TRUE(std::isnan(max_rows[0]));
    EXPECT_EQ(max_rows[1], 6);
    EXPECT_EQ(kiln::min(m, {.axis = 1}).get<double>()[1], -4);
    EXPECT_EQ(kiln::amax(kiln::array(std::vector<std::int16_t>{-3, 9, 2})).get<std::int16_t>(),
              (std::vector<std::int16_t>{9}));
    EXPECT_THROW((void)kiln::max(kiln::zeros({0}, kiln::float32)), kiln::Error);
    EXPECT_EQ(kiln::sum(kiln::zeros({0}, kiln::float32)).get<float>(), (std::vector<float>{0}));
    EXPECT_THROW((void)kiln::max(kiln::zeros({2}, kiln::complex64)), kiln::TypeError);
}

TEST(Reductions, AllAnyOutAndComplex) {
    KILN_REQUIRE_DEVICE();
    const ndarray b = kiln::array(std::vector<double>{1, 0, 2, 3}, Shape{2, 2});
    EXPECT_EQ(kiln::all(b, {.axis = 1}).get<bool>(), (std::vector<bool>{false, true}));
    EXPECT_EQ(kiln::any(b, {.axis = 0}).get<bool>(), (std::vector<bool>{true, true}));
    EXPECT_THROW((void)kiln::all(b, {.dtype = kiln::float32}), kiln::TypeError);

    ndarray out = kiln::zeros({2}, kiln::float64);
    const ndarray written = kiln::sum(b, {.axis = 0, .out = out});
    EXPECT_EQ(written.data(), out.data());
    EXPECT_EQ(out.get<double>(), (std::vector<double>{3, 3}));
    ndarray narrow = kiln::zeros({2}, kiln::int32);
    EXPECT_THROW((void)kiln::sum(b, {.axis = 0, .out = narrow}), kiln::TypeError);

    using C = std::complex<double>;
    const ndarray z = kiln::array(std::vector<C>{{1, 2}, {-3, 0.5}, {0.25, -1}});
    EXPECT_EQ(kiln::sum(z).get<C>(), (std::vector<C>{C(-1.75, 1.5)}));
    const C mean = kiln::mean(z).get<C>()[0];
    EXPECT_NEAR(mean.real(), -1.75 / 3, 1e-15);
    EXPECT_NEAR(mean.imag(), 0.5, 1e-15);
}

TEST(Reductions, BadAxesAndDtypesAreClearErrors) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = kiln::zeros({2, 3}, kiln::float32);
    EXPECT_THROW((void)kiln::sum(a, {.axis = 2}), kiln::IndexError);
    EXPECT_THROW((void)kiln::mean(a, {.axis = -3}), kiln::IndexError);
    try {
        (void)kiln::sum(a, {.dtype = kiln::int32});
        ADD_FAILURE() << "expected kiln::TypeError";
    } catch (const kiln::TypeError& e) {
        EXPECT_NE(std::string(e.what()).find("kiln: sum: the array's dtype float32 cannot be cast "
                                             "to the requested dtype int32"),
                  std::string::npos)
            << e.what();
    }
    ndarray wrong_shape = kiln::zeros({2}, kiln::float32);
    EXPECT_THROW((void)kiln::sum(a, {.axis = 0, .out = wrong_shape}), kiln::ShapeError);
}

// A routine's errors name the routine the user called, not the ReductionKernel it runs.
TEST(Reductions, ErrorsNameTheRoutine) {
    KILN_REQUIRE_DEVICE();
    using kiln::test::expect_error;
    const ndarray a = kiln::zeros({2, 3}, kiln::float32);
    expect_error<kiln::IndexError>(
        [&] { (void)kiln::sum(a, {.axis = 2}); },
        "kiln: sum: axis 2 is out of bounds for an array of dimension 2");
    expect_error<kiln::Error>(
        [&] {
            (void)kiln::mean(a, {.axis = {1, -1}});
        },
        "kiln: mean: axis -1 is repeated");
    kiln::test::expect_error_naming([] { (void)kiln::max(kiln::zeros({0}, kiln::float32)); },
                                    {"kiln: max: cannot reduce zero elements"});
}

}  // namespace
