// kiln::fuse on a GPU: each fused function against the same expression run eagerly with the
// routines (the same lambda, called with ndarrays) and against host loops, over float32,
// float64, int32, float16 and complex64, with broadcasting, scalar parameters (a new value
// reuses the kernel), several outputs, a repeated subexpression, and reductions along axes with
// keepdims and an elementwise tail.
#include "tests/support/backend_under_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace {

using kiln::DType;
using kiln::ndarray;
using kiln::Shape;

template <class T>
std::vector<T> values_of(std::int64_t n, int seed) {
    std::vector<T> values;
    for (std::int64_t i = 0; i < n; ++i) {
        const double v = std::sin(0.37 * static_cast<double>(i + 1) * (seed + 1)) * 8.0;
        if constexpr (std::is_same_v<T, std::complex<float>>) {
            values.emplace_back(static_cast<float>(v), static_cast<float>(0.5 * v - 1.0));
        } else if constexpr (std::is_same_v<T, kiln::half>) {
            values.emplace_back(static_cast<float>(v));
        } else {
            values.push_back(static_cast<T>(v));
        }
    }
    return values;
}

template <class T>
ndarray array_of(const Shape& shape, int seed) {
    std::int64_t n = 1;
    for (const auto extent : shape) {
        n *= extent;
    }
    return kiln::array(values_of<T>(n, seed), shape);
}

// The elements compared in a dtype the host compares exactly: float16 as float.
template <class T>
auto host_values(const ndarray& a) {
    if constexpr (std::is_same_v<T, kiln::half>) {
        return a.astype(DType::float32).get<float>();
    } else {
        return a.get<T>();
    }
}

const auto squared_diff = [](auto x, auto y) { return (x - y) * (x - y); };

template <class T>
void expect_squared_diff_as_eager() {
    SCOPED_TRACE(std::string(kiln::name(kiln::dtype_of<T>)));
    const auto fused = kiln::fuse("squared_diff", squared_diff);
    // (3, 5) against (5): broadcast, as eagerly.
    const ndarray a = array_of<T>({3, 5}, 1);
    const ndarray b = array_of<T>({5}, 2);
    const ndarray got = fused(a, b);
    const ndarray want = squared_diff(a, b);
    EXPECT_EQ(got.shape(), (Shape{3, 5}));
    EXPECT_EQ(got.dtype(), want.dtype());
    // Subtract then multiply: nothing to contract into a fused multiply-add, so each real
    // element is exactly the eager one; complex products may contract their parts differently.
    if constexpr (std::is_same_v<T, std::complex<float>>) {
        const auto g = got.get<T>();
        const auto w = want.get<T>();
        ASSERT_EQ(g.size(), w.size());
        for (std::size_t i = 0; i < g.size(); ++i) {
            EXPECT_NEAR(std::abs(g[i] - w[i]), 0.0F, 1e-6F * std::abs(w[i])) << i;
        }
    } else {
        EXPECT_EQ(host_values<T>(got), host_values<T>(want));
    }
}

TEST(Fuse, SquaredDiffIsTheEagerExpressionInEveryDtype) {
    KILN_REQUIRE_DEVICE();
    expect_squared_diff_as_eager<float>();
    expect_squared_diff_as_eager<double>();
    expect_squared_diff_as_eager<std::int32_t>();
    expect_squared_diff_as_eager<kiln::half>();
    expect_squared_diff_as_eager<std::complex<float>>();
}

TEST(Fuse, SquaredDiffMatchesAHostLoop) {
    KILN_REQUIRE_DEVICE();
    const auto fused = kiln::fuse("squared_diff", squared_diff);
    const auto x = values_of<double>(1000, 3);
    const auto y = values_of<double>(1000, 4);
    const auto got = fused(kiln::array(x), kiln::array(y)).get<double>();
    ASSERT_EQ(got.size(), x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        EXPECT_EQ(got[i], (x[i] - y[i]) * (x[i] - y[i])) << i;
    }
}

TEST(Fuse, ANewScalarValueReusesTheKernel) {
    KILN_REQUIRE_DEVICE();
    const auto axpy = kiln::fuse("axpy", [](auto a, auto x, auto y) { return a * x + y; });
    const auto x = values_of<float>(257, 5);
    const auto y = values_of<float>(257, 6);
    const ndarray dx = kiln::array(x);
    const ndarray dy = kiln::array(y);
    (void)axpy(2.0F, dx, dy).get<float>();
    const auto before = kiln::compile_cache_statistics();
    for (const float a : {3.0F, -0.5F, 1e3F}) {
        const auto got = axpy(a, dx, dy).get<float>();
        for (std::size_t i = 0; i < x.size(); ++i) {
            EXPECT_NEAR(got[i], a * x[i] + y[i], 1e-6 * (std::abs(a * x[i]) + std::abs(y[i])));
        }
    }
    const auto after = kiln::compile_cache_statistics();
    EXPECT_EQ(axpy.kernel_count(), 1U);
    EXPECT_EQ(after.compiles, before.compiles);
    EXPECT_EQ(after.disk_hits, before.disk_hits);
    // Another scalar kind (double: NEP 50 keeps float32) is another kernel; so is another rank.
    EXPECT_EQ(axpy(2.0, dx, dy).dtype(), DType::float32);
    EXPECT_EQ(axpy.kernel_count(), 2U);
    (void)axpy(2.0F, dx.reshape({257, 1}), dy);
    EXPECT_EQ(axpy.kernel_count(), 3U);
}

TEST(Fuse, BroadcastsInputsOfDifferentRanksWithScalars) {
    KILN_REQUIRE_DEVICE();
    const auto f = [](auto x, auto y, auto s) { return kiln::maximum(x - y, s) / 2; };
    const auto fused = kiln::fuse("broadcast", f);
    const ndarray x = array_of<double>({2, 3, 4}, 7);
    const ndarray y = array_of<double>({4}, 8);
    const ndarray got = fused(x, y, 0.25);
    EXPECT_EQ(got.shape(), (Shape{2, 3, 4}));
    EXPECT_EQ(got.get<double>(), f(x, y, 0.25).get<double>());
}

TEST(Fuse, IntegerSemanticsAreNumPys) {
    KILN_REQUIRE_DEVICE();
    const auto f = [](auto x, auto y) { return std::tuple(kiln::floor_divide(x, y), x % y); };
    const auto fused = kiln::fuse("divmod", f);
    const ndarray x = kiln::array(std::vector<std::int32_t>{7, -7, 7, -7, 5});
    const ndarray y = kiln::array(std::vector<std::int32_t>{2, 2, -2, 0, 0});
    const auto [q, r] = fused(x, y);
    // Division and remainder by zero give 0; the quotient floors, the remainder takes y's sign.
    EXPECT_EQ(q.get<std::int32_t>(), (std::vector<std::int32_t>{3, -4, -4, 0, 0}));
    EXPECT_EQ(r.get<std::int32_t>(), (std::vector<std::int32_t>{1, 1, -1, 0, 0}));
    // A weak scalar int8 cannot hold is refused, as eagerly.
    const auto add = kiln::fuse("add_scalar", [](auto a, auto s) { return a + s; });
    const ndarray small = kiln::array(std::vector<std::int8_t>{1, 2});
    EXPECT_EQ(add(small, 5).get<std::int8_t>(), (std::vector<std::int8_t>{6, 7}));
    EXPECT_THROW((void)add(small, 1000), kiln::TypeError);
    EXPECT_THROW((void)kiln::add(small, 1000), kiln::TypeError);
}

TEST(Fuse, NaNPropagatesThroughMaximumAndWhereSelects) {
    KILN_REQUIRE_DEVICE();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto f = [](auto x) { return kiln::where(kiln::isnan(x), -1.0, kiln::maximum(x, 0.0)); };
    const auto g = [](auto x) { return kiln::maximum(x, 0.0); };
    const ndarray x = kiln::array(std::vector<double>{nan, -2.0, 3.0});
    EXPECT_EQ(kiln::fuse("where_nan", f)(x).get<double>(), (std::vector<double>{-1.0, 0.0, 3.0}));
    const auto kept = kiln::fuse("max_nan", g)(x).get<double>();
    EXPECT_TRUE(std::isnan(kept[0]));
    EXPECT_EQ(kept[2], 3.0);
}

TEST(Fuse, SeveralOutputsComeFromOneKernel) {
    KILN_REQUIRE_DEVICE();
    const auto f = [](auto x, auto y) { return std::tuple(x + y, x - y, x > y); };
    const auto fused = kiln::fuse("sum_difference", f);
    const ndarray x = array_of<float>({4, 6}, 9);
    const ndarray y = array_of<float>({6}, 10);
    const auto [s, d, g] = fused(x, y);
    EXPECT_EQ(s.get<float>(), (x + y).get<float>());
    EXPECT_EQ(d.get<float>(), (x - y).get<float>());
    EXPECT_EQ(g.dtype(), DType::bool_);
    EXPECT_EQ(g.get<bool>(), (x > y).get<bool>());
    EXPECT_EQ(fused.kernel_count(), 1U);
}

TEST(Fuse, ARepeatedSubexpressionGivesTheRightValues) {
    KILN_REQUIRE_DEVICE();
    // (x - y) appears three times and is computed once (tests/unit/test_fuse_trace.cpp checks
    // the graph); the values are the eager ones (no multiply to contract with an add).
    const auto f = [](auto x, auto y) { return (x - y) / (kiln::absolute(x - y) + 1.0) - (x - y); };
    const ndarray x = array_of<double>({100}, 11);
    const ndarray y = array_of<double>({100}, 12);
    EXPECT_EQ(kiln::fuse("repeated", f)(x, y).get<double>(), f(x, y).get<double>());
}

TEST(Fuse, SumOfProductsAlongTheLastAxis) {
    KILN_REQUIRE_DEVICE();
    const auto f = [](auto x, auto y) { return kiln::sum(x * y, -1); };
    const auto fused = kiln::fuse("sum_of_products", f);
    constexpr std::int64_t rows = 5;
    constexpr std::int64_t cols = 3000;
    const auto x = values_of<float>(rows * cols, 13);
    const auto y = values_of<float>(rows * cols, 14);
    const ndarray got = fused(kiln::array(x, Shape{rows, cols}), kiln::array(y, Shape{rows, cols}));
    EXPECT_EQ(got.shape(), (Shape{rows}));
    EXPECT_EQ(got.dtype(), DType::float32);
    const auto values = got.get<float>();
    for (std::int64_t r = 0; r < rows; ++r) {
        double want = 0;
        double scale = 0;
        for (std::int64_t c = 0; c < cols; ++c) {
            const auto i = static_cast<std::size_t>(r * cols + c);
            want += static_cast<double>(x[i]) * y[i];
            scale += std::abs(static_cast<double>(x[i]) * y[i]);
        }
        EXPECT_NEAR(values[static_cast<std::size_t>(r)], want, 1e-5 * scale) << r;
    }
}

TEST(Fuse, ReductionTailAxesAndKeepdims) {
    KILN_REQUIRE_DEVICE();
    const ndarray x = array_of<double>({4, 3, 50}, 15);
    const auto host = x.get<double>();
    // sqrt(sum(x * x)) along the last axis: the tail is the reduction's post-map.
    const auto norm = [](auto v) { return kiln::sqrt(kiln::sum(v * v, -1)); };
    const ndarray norms = kiln::fuse("norm", norm)(x);
    EXPECT_EQ(norms.shape(), (Shape{4, 3}));
    const auto got = norms.get<double>();
    for (std::size_t row = 0; row < 12; ++row) {
        double sum = 0;
        for (std::size_t k = 0; k < 50; ++k) {
            sum += host[row * 50 + k] * host[row * 50 + k];
        }
        EXPECT_NEAR(got[row], std::sqrt(sum), 1e-12 * std::sqrt(sum)) << row;
    }
    // Axes 0 and 2 with keepdims, and a scalar in the tail: against the eager routines.
    const auto scaled = [](auto v, auto s) { return kiln::max(v * v, kiln::Axis{0, 2}, true) * s; };
    const ndarray kept = kiln::fuse("scaled_max", scaled)(x, 0.5);
    EXPECT_EQ(kept.shape(), (Shape{1, 3, 1}));
    EXPECT_EQ(kept.get<double>(), scaled(x, 0.5).get<double>());
}

TEST(Fuse, MeanOfSquaredDifferences) {
    KILN_REQUIRE_DEVICE();
    const auto mse = [](auto x, auto y) { return kiln::mean((x - y) * (x - y)); };
    const auto x = values_of<double>(10000, 16);
    const auto y = values_of<double>(10000, 17);
    const ndarray got = kiln::fuse("mse", mse)(kiln::array(x), kiln::array(y));
    EXPECT_EQ(got.ndim(), 0);
    double want = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        want += (x[i] - y[i]) * (x[i] - y[i]);
    }
    want /= static_cast<double>(x.size());
    EXPECT_NEAR(got.get<double>().at(0), want, 1e-12 * want);
    // Of integers, mean is float64 and sum int64, as eagerly.
    const ndarray ints = kiln::array(std::vector<std::int8_t>{100, 100, 100, -1});
    const ndarray mean = kiln::fuse("int_mean", [](auto v) { return kiln::mean(v); })(ints);
    EXPECT_EQ(mean.dtype(), DType::float64);
    EXPECT_EQ(mean.get<double>().at(0), 74.75);
    const ndarray sum = kiln::fuse("int_sum", [](auto v) { return kiln::sum(v * 2); })(ints);
    EXPECT_EQ(sum.dtype(), DType::int64);
    // v * 2 wraps in int8 (200 -> -56) before the sum widens, as eagerly.
    EXPECT_EQ(sum.get<std::int64_t>().at(0), kiln::sum(ints * 2).get<std::int64_t>().at(0));
}

TEST(Fuse, Float16AndComplexReductions) {
    KILN_REQUIRE_DEVICE();
    const ndarray h = array_of<kiln::half>({6, 40}, 18);
    const auto f16 = [](auto v) { return kiln::sum(v * v, 1); };
    const ndarray got = kiln::fuse("half_sum", f16)(h);
    EXPECT_EQ(got.dtype(), DType::float16);
    const auto want = f16(h).astype(DType::float32).get<float>();
    const auto values = got.astype(DType::float32).get<float>();
    for (std::size_t i = 0; i < values.size(); ++i) {
        // An ulp of float16 (2^-10 relative) where the summation orders differ.
        EXPECT_NEAR(values[i], want[i], 2e-3 * std::abs(want[i]) + 1e-3) << i;
    }
    const ndarray z = array_of<std::complex<float>>({30}, 19);
    const auto c64 = [](auto v) { return kiln::absolute(kiln::sum(v * v)); };
    const ndarray magnitude = kiln::fuse("complex_sum", c64)(z);
    EXPECT_EQ(magnitude.dtype(), DType::float32);
    const float want_magnitude = c64(z).get<float>().at(0);
    EXPECT_NEAR(magnitude.get<float>().at(0), want_magnitude, 1e-5F * want_magnitude);
}

TEST(Fuse, ScalarsAloneGiveAZeroDimensionalArray) {
    KILN_REQUIRE_DEVICE();
    const ndarray got = kiln::fuse("product", [](auto x, auto y) { return x * y; })(2.5, 4);
    EXPECT_EQ(got.ndim(), 0);
    EXPECT_EQ(got.get<double>(), (std::vector<double>{10.0}));
}

TEST(Fuse, WhatCannotBeFusedIsAnErrorAtTheFirstCall) {
    KILN_REQUIRE_DEVICE();
    const auto centred = kiln::fuse("centred", [](auto x) { return x - kiln::mean(x); });
    const ndarray x = array_of<float>({8}, 20);
    EXPECT_THROW((void)centred(x), kiln::TypeError);
    EXPECT_EQ(centred.kernel_count(), 0U);
    // The eager expression is fine.
    EXPECT_EQ((x - kiln::mean(x)).shape(), (Shape{8}));
}

TEST(Fuse, AFusedFunctionInsideAnotherIsInlined) {
    KILN_REQUIRE_DEVICE();
    const auto inner = kiln::fuse("inner", [](auto x, auto y) { return x * y; });
    const auto outer = kiln::fuse("outer", [&](auto x, auto y) { return inner(x, y) / 2.0; });
    const ndarray x = array_of<double>({10}, 21);
    const ndarray y = array_of<double>({10}, 22);
    EXPECT_EQ(outer(x, y).get<double>(), (x * y / 2.0).get<double>());
    EXPECT_EQ(inner.kernel_count(), 0U);
}

TEST(Fuse, VarStdArgmaxAndArgminReduceTheFusedMap) {
    KILN_REQUIRE_DEVICE();
    constexpr std::int64_t cols = 200;
    const ndarray x = array_of<double>({6, cols}, 23);
    const ndarray y = array_of<double>({cols}, 24);
    const auto spread = [](auto a, auto b) { return kiln::var(a - b, {.axis = 1, .ddof = 1}); };
    const ndarray variances = kiln::fuse("spread", spread)(x, y);
    const auto want = spread(x, y).get<double>();
    const auto got = variances.get<double>();
    ASSERT_EQ(got.size(), 6U);
    // Row 0 against a host loop, every row against the eager routine.
    const auto hx = x.get<double>();
    const auto hy = y.get<double>();
    double mean = 0;
    for (std::int64_t c = 0; c < cols; ++c) {
        mean += hx[static_cast<std::size_t>(c)] - hy[static_cast<std::size_t>(c)];
    }
    mean /= cols;
    double squares = 0;
    for (std::int64_t c = 0; c < cols; ++c) {
        const double d = hx[static_cast<std::size_t>(c)] - hy[static_cast<std::size_t>(c)] - mean;
        squares += d * d;
    }
    EXPECT_NEAR(got[0], squares / (cols - 1), 1e-12 * squares);
    for (std::size_t r = 0; r < got.size(); ++r) {
        EXPECT_NEAR(got[r], want[r], 1e-12 * want[r]) << r;
    }
    const auto deviation = [](auto a, auto b) {
        return kiln::std(a * b, {.axis = 0, .keepdims = true}) * 2.0;
    };
    const ndarray deviations = kiln::fuse("deviation", deviation)(x, y);
    EXPECT_EQ(deviations.shape(), (Shape{1, cols}));
    const auto got_deviations = deviations.get<double>();
    const auto want_deviations = deviation(x, y).get<double>();
    for (std::size_t c = 0; c < got_deviations.size(); ++c) {
        EXPECT_NEAR(got_deviations[c], want_deviations[c], 1e-12 * want_deviations[c]) << c;
    }
    // The indices are exact, and the first of equal values, as eagerly.
    const auto peak = [](auto a, auto b) { return kiln::argmax(kiln::floor(a - b), {.axis = 1}); };
    const ndarray peaks = kiln::fuse("peak", peak)(x, y);
    EXPECT_EQ(peaks.dtype(), DType::int64);
    EXPECT_EQ(peaks.get<std::int64_t>(), peak(x, y).get<std::int64_t>());
    const auto trough = [](auto a, auto b) { return kiln::argmin(a * b) + 1; };
    EXPECT_EQ(kiln::fuse("trough", trough)(x, y).get<std::int64_t>(),
              trough(x, y).get<std::int64_t>());
}

}  // namespace
