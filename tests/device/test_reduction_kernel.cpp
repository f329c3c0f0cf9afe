// ReductionKernel on a real GPU: the seeds' reductions with their known answers, axes, layouts,
// every split strategy against closed forms, several outputs, and every error a user can make.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace {

using kiln::ndarray;
using kiln::ReductionKernel;
using kiln::test::expect_error;

ReductionKernel sum_kernel() {
    return {"T x", "T y", "x", "a + b", "y = a", "0", "sum"};
}

TEST(ReductionKernel, SumOfSquaresOfTheSeed) {
    KILN_REQUIRE_DEVICE();
    const ReductionKernel sum_of_squares("T x", "T y", "x * x", "a + b", "y = a", "0",
                                         "sum_of_squares");
    const ndarray x = kiln::array(std::vector<std::int32_t>{1, 2, 3, 4, 5});
    const ndarray y = sum_of_squares({x});
    EXPECT_EQ(y.ndim(), 0);
    EXPECT_EQ(y.get<std::int32_t>(), std::vector<std::int32_t>{55});
}

TEST(ReductionKernel, L2NormAlongAxisOneOfTheSeed) {
    KILN_REQUIRE_DEVICE();
    const ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
    const ndarray x = kiln::arange(0.0, 10.0, 1.0, kiln::float32).reshape({2, 5});
    const auto y = l2norm({x}, {.axis = 1}).get<float>();
    ASSERT_EQ(y.size(), 2U);
    EXPECT_FLOAT_EQ(y[0], 5.477226F);
    EXPECT_FLOAT_EQ(y[1], 15.968719F);
}

// The seed's MSE: two inputs, `_in_ind.size()` in the post-map, uniform(0, 100) against itself
// plus normal(0, 5) noise, so the answer is the noise's variance, about 25.
TEST(ReductionKernel, MeanSquaredErrorOfTheSeedIsTheNoiseVariance) {
    KILN_REQUIRE_DEVICE();
    const ReductionKernel mse("T x, T y", "T z", "(x - y) * (x - y)", "a + b",
                              "z = a / _in_ind.size()", "0", "mse");
    const std::size_t n = 1'000'000;
    std::mt19937_64 generator(7);
    std::uniform_real_distribution<double> uniform(0, 100);
    std::normal_distribution<double> noise(0, 5);
    std::vector<double> x(n);
    std::vector<double> y(n);
    double want = 0;
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = uniform(generator);
        y[i] = x[i] + noise(generator);
        want += (x[i] - y[i]) * (x[i] - y[i]);
    }
    want /= static_cast<double>(n);
    const double got = mse({kiln::array(x), kiln::array(y)}).get<double>()[0];
    EXPECT_NEAR(got, want, 1e-10 * want);
    EXPECT_NEAR(got, 25.0, 0.25);
}

// Long reductions are split over many blocks: every strategy against closed forms.
TEST(ReductionKernel, FullReductionOfTenMillionIsSplitAndExact) {
    KILN_REQUIRE_DEVICE();
    const std::int64_t n = 10'000'000;
    const ndarray x = kiln::arange(0.0, static_cast<double>(n), 1.0, kiln::float64);
    EXPECT_EQ(sum_kernel()({x}).get<double>()[0], static_cast<double>(n * (n - 1) / 2));
    const ndarray i = kiln::arange(0.0, static_cast<double>(n), 1.0, kiln::int64);
    EXPECT_EQ(sum_kernel()({i}).get<std::int64_t>()[0], n * (n - 1) / 2);
}

// A length the reductions below split over blocks on a GPU.
constexpr std::int64_t split_length = 1 << 22;

// 0 + 1 + ... + (split_length - 1), exact in float64.
double split_sum() {
    return static_cast<double>(split_length) * static_cast<double>(split_length - 1) / 2;
}

// A split reduction's last block finishes it with the stream's block counter, which it sets back
// to zero: back-to-back calls of two kernels on one stream, calls interleaved on two streams and
// on the per-thread stream (which has no counter), each against its closed form.
TEST(ReductionKernel, SplitReductionsFinishOnEveryStream) {
    KILN_REQUIRE_DEVICE();
    const ndarray x = kiln::arange(0.0, static_cast<double>(split_length), 1.0, kiln::float64);
    const ReductionKernel sum = sum_kernel();
    const ReductionKernel largest("T x", "T y", "x", "max(a, b)", "y = a", "-1.0", "largest");
    kiln::Stream first(true);
    kiln::Stream second(true);
    kiln::Device::current().synchronize();  // x is ready: the streams do not wait for the null one
    std::vector<ndarray> sums;
    std::vector<ndarray> maxima;
    for (int i = 0; i < 20; ++i) {
        for (const kiln::StreamView stream :
             {first.view(), second.view(), kiln::per_thread_stream()}) {
            sums.push_back(sum({x}, {.stream = stream}));
            maxima.push_back(largest({x}, {.stream = stream}));
        }
    }
    kiln::Device::current().synchronize();
    for (const ndarray& s : sums) {
        EXPECT_EQ(s.get<double>(), std::vector<double>{split_sum()});
    }
    for (const ndarray& m : maxima) {
        EXPECT_EQ(m.get<double>(), std::vector<double>{static_cast<double>(split_length - 1)});
    }
}

// A split reduction captured into a graph takes no counter (its graph may run beside later work
// on any stream): launched on another stream beside calls on its own, which take that stream's
// counter, both give the sum each time.
TEST(ReductionKernel, ACapturedSplitReductionRunsOnAnyStream) {
    KILN_REQUIRE_DEVICE();
    const ndarray x = kiln::arange(0.0, static_cast<double>(split_length), 1.0, kiln::float64);
    const ReductionKernel sum = sum_kernel();
    kiln::Stream first(true);
    kiln::Stream second(true);
    const ndarray captured = kiln::zeros({}, kiln::float64);
    (void)sum({x}, {.stream = first});  // compiled and recorded before the capture
    kiln::Device::current().synchronize();
    first.begin_capture();
    (void)sum({x}, {.out = {captured}, .stream = first});
    const kiln::Graph graph = first.end_capture();
    EXPECT_EQ(captured.get<double>(), std::vector<double>{0.0}) << "captured, not run";
    for (int i = 0; i < 20; ++i) {
        graph.launch(second);
        const ndarray beside = sum({x}, {.stream = first});
        kiln::Device::current().synchronize();
        EXPECT_EQ(captured.get<double>(), std::vector<double>{split_sum()}) << i;
        EXPECT_EQ(beside.get<double>(), std::vector<double>{split_sum()}) << i;
    }
}

// A scalar input reaches the post-map in the pass that finishes a split reduction, as in the
// one-pass case.
TEST(ReductionKernel, ScalarInputInThePostMapOfASplitReduction) {
    KILN_REQUIRE_DEVICE();
    const ReductionKernel scaled_sum("T x, float64 scale", "T y", "x", "a + b", "y = a * scale",
                                     "0", "scaled_sum");
    const std::int64_t n = 10'000'000;
    const ndarray x = kiln::arange(0.0, static_cast<double>(n), 1.0, kiln::float64);
    EXPECT_EQ(scaled_sum({x, kiln::Scalar(0.5)}).get<double>()[0],
              static_cast<double>(n * (n - 1) / 4));
    const ndarray small = kiln::arange(0.0, 10.0, 1.0, kiln::float64);
    EXPECT_EQ(scaled_sum({small, kiln::Scalar(2.0)}).get<double>()[0], 90.0);
}

// Row r of an (rows, cols) arange sums to cols * (r * cols) + cols * (cols - 1) / 2; column c to
// rows * c + cols * rows * (rows - 1) / 2.
void expect_row_and_column_sums(std::int64_t rows, std::int64_t cols) {
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols));
    const ndarray x =
        kiln::arange(0.0, static_cast<double>(rows * cols), 1.0, kiln::int64).reshape({rows, cols});
    const auto row_sums = sum_kernel()({x}, {.axis = 1}).get<std::int64_t>();
    ASSERT_EQ(row_sums.size(), static_cast<std::size_t>(rows));
    for (std::int64_t r = 0; r < rows; ++r) {
        ASSERT_EQ(row_sums[r], cols * (r * cols) + cols * (cols - 1) / 2) << "row " << r;
    }
    const auto col_sums = sum_kernel()({x}, {.axis = 0}).get<std::int64_t>();
    ASSERT_EQ(col_sums.size(), static_cast<std::size_t>(cols));
    for (std::int64_t c = 0; c < cols; ++c) {
        ASSERT_EQ(col_sums[c], rows * c + cols * rows * (rows - 1) / 2) << "column " << c;
    }
    const auto neg = sum_kernel()({x}, {.axis = -1}).get<std::int64_t>();
    EXPECT_EQ(neg, row_sums);
}

TEST(ReductionKernel, AxisReductionsOfSquareAndSkewedShapes) {
    KILN_REQUIRE_DEVICE();
    expect_row_and_column_sums(2048, 2048);
    expect_row_and_column_sums(16, 1'000'000);
    expect_row_and_column_sums(1'000'000, 16);
    expect_row_and_column_sums(3, 1);
    expect_row_and_column_sums(1, 1000);
}

// Short contiguous rows are shared by a few lanes each and combined through warp shuffles:
// lengths around the lane counts and the warp, over more rows than one pass of the grid covers.
TEST(ReductionKernel, ShortRowsOfEveryLengthAroundTheWarp) {
    KILN_REQUIRE_DEVICE();
    for (const std::int64_t cols : {1, 2, 3, 4, 5, 15, 16, 17, 31, 32, 33}) {
        expect_row_and_column_sums(50'001, cols);
    }
}

// Short rows without an identity (the lanes past a row's end hold nothing), into a strided out=
// with keepdims, and a tuple reduce type of two 32-bit members.
TEST(ReductionKernel, ShortRowMaximumAndArgmaxAgainstAHostLoop) {
    KILN_REQUIRE_DEVICE();
    const ReductionKernel max("T x", "T y", "x", "a > b ? a : b", "y = a", "", "maximum");
    const ReductionKernel argmax("T x", "T best, int32 at", "x, int(_J)",
                                 "a._0 > b._0 || (a._0 == b._0 && a._1 < b._1) ? a : b",
                                 "best = a._0; at = a._1", "", "argmax32");
    const std::int64_t rows = 70'001;
    for (const std::int64_t cols : {1, 2, 15, 16, 17, 31, 32, 33}) {
        SCOPED_TRACE(std::to_string(cols) + " columns");
        std::vector<float> values(static_cast<std::size_t>(rows * cols));
        std::vector<float> want_max(static_cast<std::size_t>(rows));
        std::vector<std::int32_t> want_at(static_cast<std::size_t>(rows));
        for (std::int64_t r = 0; r < rows; ++r) {
            for (std::int64_t c = 0; c < cols; ++c) {
                // Negative values, with ties: the first of equal maxima wins.
                const auto v = -static_cast<float>((r * 7919 + c * 104'729) % 23);
                values[static_cast<std::size_t>(r * cols + c)] = v;
                const auto row = static_cast<std::size_t>(r);
                if (c == 0 || v > want_max[row]) {
                    want_max[row] = v;
                    want_at[row] = static_cast<std::int32_t>(c);
                }
            }
        }
        const ndarray x = kiln::array(values, kiln::Shape{rows, cols});
        const ndarray wide = kiln::zeros({2 * rows, 1}, kiln::float32);
        const ndarray out = wide[{kiln::Slice{.step = 2}, kiln::Slice{}}];
        (void)max({x}, {.axis = 1, .keepdims = true, .out = {out}});
        EXPECT_EQ(out.copy().get<float>(), want_max);
        const auto top = argmax.outputs(std::vector<kiln::Argument>{x}, {.axis = 1});
        EXPECT_EQ(top[0].get<float>(), want_max);
        EXPECT_EQ(top[1].get<std::int32_t>(), want_at);
    }
}

// A tuple reduce type of two 64-bit members with an identity, over short rows.
TEST(ReductionKernel, ShortRowWeightedMeans) {
    KILN_REQUIRE_DEVICE();
    const ReductionKernel weighted_mean(
        "T x, T w", "float64 mean, float64 weight", "double(x) * double(w), double(w)",
        "a._0 + b._0, a._1 + b._1", "mean = a._0 / a._1; weight = a._1", "0, 0", "weighted_mean");
    const std::int64_t rows = 40'003;
    for (const std::int64_t cols : {1, 16, 17, 33}) {
        SCOPED_TRACE(std::to_string(cols) + " columns");
        // x[r, c] = r + c, w[r, c] = c + 1: mean = r + sum c (c + 1) / sum (c + 1).
        std::vector<double> x(static_cast<std::size_t>(rows * cols));
        std::vector<double> w(x.size());
        for (std::int64_t i = 0; i < rows; ++i) {
            for (std::int64_t j = 0; j < cols; ++j) {
                x[static_cast<std::size_t>(i * cols + j)] = static_cast<double>(i + j);
                w[static_cast<std::size_t>(i * cols + j)] = static_cast<double>(j + 1);
            }
        }
        const std::int64_t total_weight = cols * (cols + 1) / 2;
        const std::int64_t weighted_columns = (cols - 1) * cols * (cols + 1) / 3;
        const auto weight = static_cast<double>(total_weight);
        const double offset = static_cast<double>(weighted_columns) / weight;
        const auto results = weighted_mean.outputs(
            std::vector<kiln::Argument>{kiln::array(x, kiln::Shape{rows, cols}),
                                        kiln::array(w, kiln::Shape{rows, cols})},
            {.axis = 1});
        const auto means = results[0].get<double>();
        const auto weights = results[1].get<double>();
        for (std::int64_t i = 0; i < rows; ++i) {
            const auto row = static_cast<std::size_t>(i);
            ASSERT_DOUBLE_EQ(means[row], static_cast<double>(i) + offset) << "row " << i;
            ASSERT_EQ(weights[row], weight) << "row " << i;
        }
    }
}

TEST(ReductionKernel, TupleAxesKeepdimsAndOutputs) {
    KILN_REQUIRE_DEVICE();
    // x[i, j, k] = 100 i + 10 j + k over (2, 3, 4).
    std::vector<std::int64_t> values;
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 3; ++j) {
            for (int k = 0; k < 4; ++k) {
                values.push_back(100 * i + 10 * j + k);
            }
        }
    }
    const ndarray x = kiln::array(values, kiln::Shape{2, 3, 4});
    // Over axes 0 and 2: 4 * 100 (i=1) + 2 * 4 * 10 j + 2 * 6.
    const ndarray y = sum_kernel()({x}, {.axis = {0, 2}, .keepdims = true});
    EXPECT_EQ(y.shape(), (kiln::Shape{1, 3, 1}));
    EXPECT_EQ(y.get<std::int64_t>(), (std::vector<std::int64_t>{412, 492, 572}));
    // The same written into an output passed as out=, and one passed after the inputs.
    const ndarray out = kiln::zeros({3}, kiln::int64);
    (void)sum_kernel()({x}, {.axis = {-3, -1}, .out = {out}});
    EXPECT_EQ(out.get<std::int64_t>(), (std::vector<std::int64_t>{412, 492, 572}));
    const ndarray out2 = kiln::zeros({3}, kiln::int64);
    (void)sum_kernel()({x, out2}, {.axis = {0, 2}});
    EXPECT_EQ(out2.get<std::int64_t>(), (std::vector<std::int64_t>{412, 492, 572}));
    // No axes: every element maps and post-maps on its own.
    const ndarray same = sum_kernel()({x}, {.axis = kiln::Axis(std::vector<int>{})});
    EXPECT_EQ(same.get<std::int64_t>(), values);
}

TEST(ReductionKernel, StridedBroadcastAndZeroDimensionalInputs) {
    KILN_REQUIRE_DEVICE();
    const ReductionKernel dot("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "dot");
    const ndarray m = kiln::arange(0.0, 12.0, 1.0, kiln::float64).reshape({3, 4});
    // Transposed: column sums of m become row sums of m.T.
    EXPECT_EQ(sum_kernel()({m.transpose()}, {.axis = 1}).get<double>(),
              (std::vector<double>{12, 15, 18, 21}));
    // Every other column: m[:, ::2] = [[0, 2], [4, 6], [8, 10]].
    const ndarray every_other = m[{kiln::Slice{}, kiln::Slice{.step = 2}}];
    EXPECT_EQ(sum_kernel()({every_other}, {.axis = 0}).get<double>(),
              (std::vector<double>{12, 18}));
    // A row broadcast against the matrix: row r of m dotted with [1, 2, 3, 4].
    const ndarray w = kiln::arange(1.0, 5.0, 1.0, kiln::float64);
    EXPECT_EQ(dot({m, w}, {.axis = 1}).get<double>(), (std::vector<double>{20, 60, 100}));
    // A scalar input scales every element.
    EXPECT_EQ(dot({m, 2.0}).get<double>(), (std::vector<double>{132}));
    // A 0-d input reduces to itself.
    const ndarray scalar = kiln::full({}, 7.5, kiln::float64);
    EXPECT_EQ(sum_kernel()({scalar}).get<double>(), (std::vector<double>{7.5}));
}

TEST(ReductionKernel, EmptyReductionsGiveTheIdentityOrAnError) {
    KILN_REQUIRE_DEVICE();
    const ReductionKernel count("T x", "int64 n", "1", "a + b", "n = a + 100", "0", "count");
    const ndarray empty_rows = kiln::zeros({3, 0}, kiln::float32);
    EXPECT_EQ(count({empty_rows}, {.axis = 1}).get<std::int64_t>(),
              (std::vector<std::int64_t>{100, 100, 100}));
    EXPECT_EQ(count({empty_rows}, {.axis = 0}).size(), 0);
    const ReductionKernel max("T x", "T y", "x", "a > b ? a : b", "y = a", "", "maximum");
    expect_error<kiln::Error>(
        [&] { (void)max({empty_rows}, {.axis = 1}); },
        "kiln: ReductionKernel 'maximum': cannot reduce zero elements: the kernel has no "
        "identity");
    // Without an identity, non-empty reductions work, negative values included.
    const ndarray x = kiln::array(std::vector<float>{-5, -3, -9, -1, -7});
    EXPECT_EQ(max({x}).get<float>(), std::vector<float>{-1});
}

// Several outputs reduce one tuple, which CuPy cannot do: a weighted mean with its total weight,
// and an argmax with no identity.
TEST(ReductionKernel, SeveralOutputsReduceATuple) {
    KILN_REQUIRE_DEVICE();
    const ReductionKernel weighted_mean(
        "T x, T w", "float64 mean, float64 weight", "double(x) * double(w), double(w)",
        "a._0 + b._0, a._1 + b._1", "mean = a._0 / a._1; weight = a._1", "0, 0", "weighted_mean");
    const std::int64_t n = 3'000'000;
    const ndarray x = kiln::arange(0.0, static_cast<double>(n), 1.0, kiln::float32);
    const ndarray w = kiln::full({n}, 2.0, kiln::float32);
    const auto results = weighted_mean.outputs(std::vector<kiln::Argument>{x, w});
    ASSERT_EQ(results.size(), 2U);
    EXPECT_DOUBLE_EQ(results[0].get<double>()[0], static_cast<double>(n - 1) / 2);
    EXPECT_DOUBLE_EQ(results[1].get<double>()[0], 2.0 * static_cast<double>(n));

    const ReductionKernel argmax("T x", "T best, int64 at", "x, _J",
                                 "a._0 > b._0 || (a._0 == b._0 && a._1 < b._1) ? a : b",
                                 "best = a._0; at = a._1", "", "argmax");
    std::vector<float> values(1'000'003);
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = static_cast<float>((i * 7919) % 1'000'003);
    }
    const auto top = argmax.outputs(std::vector<kiln::Argument>{kiln::array(values)});
    const auto want = std::max_element(values.begin(), values.end()) - values.begin();
    EXPECT_EQ(top[0].get<float>()[0], values[static_cast<std::size_t>(want)]);
    EXPECT_EQ(top[1].get<std::int64_t>()[0], want);
    expect_error<kiln::TypeError>(
        [&] { (void)argmax({kiln::array(values)}); },
        "kiln: ReductionKernel 'argmax': has 2 outputs; call outputs() to get them all");
}

// A column reduction without identity split over blocks, into a strided out= with keepdims; and
// the same of three rows (the host reduces a few rows in strips of outputs).
TEST(ReductionKernel, SplitColumnMaximumIntoAStridedOutput) {
    KILN_REQUIRE_DEVICE();
    const std::int64_t cols = 300;
    for (const std::int64_t rows : {std::int64_t{100'000}, std::int64_t{3}}) {
        SCOPED_TRACE(std::to_string(rows) + " rows");
        std::vector<float> values(static_cast<std::size_t>(rows * cols));
        std::vector<float> want(static_cast<std::size_t>(cols), -1);
        for (std::int64_t r = 0; r < rows; ++r) {
            for (std::int64_t c = 0; c < cols; ++c) {
                const auto v = static_cast<float>((r * 7919 + c * 31) % 100'003);
                values[static_cast<std::size_t>(r * cols + c)] = v;
                want[static_cast<std::size_t>(c)] = std::max(want[static_cast<std::size_t>(c)], v);
            }
        }
        const ReductionKernel max("T x", "T y", "x", "a > b ? a : b", "y = a", "", "maximum");
        const ndarray wide = kiln::zeros({1, 2 * cols}, kiln::float32);
        const ndarray out = wide[{kiln::Slice{}, kiln::Slice{.step = 2}}];
        (void)max({kiln::array(values, kiln::Shape{rows, cols})},
                  {.axis = 0, .keepdims = true, .out = {out}});
        EXPECT_EQ(out.copy().get<float>(), want);
        const auto untouched = wide[{kiln::Slice{}, kiln::Slice{.start = 1, .step = 2}}].copy();
        EXPECT_EQ(untouched.get<float>(), std::vector<float>(static_cast<std::size_t>(cols), 0));
    }
}

// Reductions whose outputs lie next to each other (the host sweeps the reduced rows and
// accumulates a tile of outputs at once), against host loops: more outputs than one tile in
// blocks and chunks that do not divide them, output rows shorter than a tile, two reduced axes
// that do not merge, no identity with ties (the first index wins), the one-element case and
// empty reductions.
TEST(ReductionKernel, ReductionsAcrossRowsOfNeighbouringOutputs) {
    KILN_REQUIRE_DEVICE();
    // x[k] = k % 1009 in the array's C order: small integers, so every sum is exact.
    const auto pattern = [](const kiln::Shape& shape) {
        std::int64_t size = 1;
        for (const std::int64_t extent : shape) {
            size *= extent;
        }
        std::vector<double> values(static_cast<std::size_t>(size));
        for (std::size_t k = 0; k < values.size(); ++k) {
            values[k] = static_cast<double>(k % 1009);
        }
        return values;
    };
    // Sums of (a, b, c, d) over `axes`, by a host loop over every element.
    const auto expect_sums = [&](const kiln::Shape& shape, const std::vector<int>& axes) {
        SCOPED_TRACE("shape " + kiln::to_string(shape) + ", " + std::to_string(axes.size()) +
                     " axes from " + std::to_string(axes.front()));
        const std::vector<double> values = pattern(shape);
        kiln::Shape kept;
        std::vector<bool> reduced(shape.size());
        for (const int a : axes) {
            reduced[static_cast<std::size_t>(a)] = true;
        }
        for (std::size_t a = 0; a < shape.size(); ++a) {
            if (!reduced[a]) {
                kept.push_back(shape[a]);
            }
        }
        std::int64_t outputs = 1;
        for (const std::int64_t extent : kept) {
            outputs *= extent;
        }
        std::vector<double> want(static_cast<std::size_t>(outputs));
        std::vector<std::int64_t> index(shape.size());
        for (const double v : values) {
            std::int64_t out = 0;
            for (std::size_t a = 0; a < shape.size(); ++a) {
                out = reduced[a] ? out : out * shape[a] + index[a];
            }
            want[static_cast<std::size_t>(out)] += v;
            for (std::size_t a = shape.size(); a-- > 0;) {
                if (++index[a] < shape[a]) {
                    break;
                }
                index[a] = 0;
            }
        }
        const ndarray y = sum_kernel()({kiln::array(values, shape)}, {.axis = kiln::Axis(axes)});
        EXPECT_EQ(y.shape(), kept);
        EXPECT_EQ(y.get<double>(), want);
    };
    expect_sums({1000, 1300}, {0});
    // Few rows: strips of outputs, whole and partial, and chunks of a split reduction.
    expect_sums({5, 100}, {0});
    expect_sums({16, 70, 33}, {0});
    expect_sums({512, 2048}, {0});
    expect_sums({6, 100, 5}, {1});
    expect_sums({4, 5, 6, 7}, {0, 2});
    expect_sums({70, 3, 2}, {0});
    expect_sums({1, 1}, {0});
    expect_sums({0, 5}, {0});
    expect_sums({5, 0}, {0});

    const ReductionKernel argmax("T x", "T best, int64 at", "x, _J",
                                 "a._0 > b._0 || (a._0 == b._0 && a._1 < b._1) ? a : b",
                                 "best = a._0; at = a._1", "", "argmax");
    const std::int64_t cols = 70;
    for (const std::int64_t rows : {std::int64_t{3001}, std::int64_t{7}}) {
        SCOPED_TRACE("argmax of " + std::to_string(rows) + " rows");
        std::vector<float> values(static_cast<std::size_t>(rows * cols));
        std::vector<float> best(static_cast<std::size_t>(cols));
        std::vector<std::int64_t> at(static_cast<std::size_t>(cols));
        for (std::int64_t r = 0; r < rows; ++r) {
            for (std::int64_t c = 0; c < cols; ++c) {
                const auto v = static_cast<float>((r * 7919 + c * 31) % 97);
                values[static_cast<std::size_t>(r * cols + c)] = v;
                const auto col = static_cast<std::size_t>(c);
                if (r == 0 || v > best[col]) {
                    best[col] = v;
                    at[col] = r;
                }
            }
        }
        const auto top = argmax.outputs(
            std::vector<kiln::Argument>{kiln::array(values, kiln::Shape{rows, cols})}, {.axis = 0});
        EXPECT_EQ(top[0].get<float>(), best);
        EXPECT_EQ(top[1].get<std::int64_t>(), at);
    }
}

// float32 sums of a million uniform values in [0, 1) per output, along rows and across them,
// against double sums: one accumulator adding them in order is off by 4e-6 to 1.4e-5 (relative).
TEST(ReductionKernel, LongFloat32SumsStayAccurate) {
    KILN_REQUIRE_DEVICE();
    const std::int64_t length = 1 << 20;
    const std::int64_t outputs = 4;
    std::mt19937 generator(5);
    std::uniform_real_distribution<float> uniform(0, 1);
    std::vector<float> values(static_cast<std::size_t>(length * outputs));
    for (float& v : values) {
        v = uniform(generator);
    }
    // As (length, outputs), reduced along axis 0; as (outputs, length), along axis 1.
    std::vector<double> down(static_cast<std::size_t>(outputs));
    std::vector<double> along(static_cast<std::size_t>(outputs));
    for (std::size_t k = 0; k < values.size(); ++k) {
        down[k % static_cast<std::size_t>(outputs)] += values[k];
        along[k / static_cast<std::size_t>(length)] += values[k];
    }
    const ndarray x = kiln::array(values);
    const auto columns = sum_kernel()({x.reshape({length, outputs})}, {.axis = 0}).get<float>();
    const auto rows = sum_kernel()({x.reshape({outputs, length})}, {.axis = 1}).get<float>();
    for (std::size_t o = 0; o < static_cast<std::size_t>(outputs); ++o) {
        EXPECT_NEAR(columns[o], down[o], 1e-6 * down[o]) << "column " << o;
        EXPECT_NEAR(rows[o], along[o], 1e-6 * along[o]) << "row " << o;
    }
}

TEST(ReductionKernel, SourceShowsTheGeneratedKernels) {
    KILN_REQUIRE_DEVICE();
    const ndarray x = kiln::zeros({4, 5}, kiln::float32);
    const std::string source = sum_kernel().source(std::vector<kiln::Argument>{x}, {.axis = 1});
    if (kiln::test::is_host()) {
        EXPECT_NE(source.find("KILN_HOST_KERNEL(sum, "), std::string::npos) << source;
        EXPECT_NE(source.find("KILN_HOST_KERNEL(sum_finish, "), std::string::npos) << source;
    } else {
        EXPECT_NE(source.find("extern \"C\" __global__ void sum("), std::string::npos);
        EXPECT_NE(source.find("extern \"C\" __global__ void sum_finish("), std::string::npos);
    }
    EXPECT_NE(source.find("typedef float T;"), std::string::npos);
}

TEST(ReductionKernel, BadCallsAreClearErrors) {
    KILN_REQUIRE_DEVICE();
    const ndarray x = kiln::zeros({2, 3}, kiln::float32);
    const auto sum = sum_kernel();
    expect_error<kiln::IndexError>(
        [&] { (void)sum({x}, {.axis = 2}); },
        "kiln: ReductionKernel 'sum': axis 2 is out of bounds for an array of dimension 2");
    expect_error<kiln::Error>(
        [&] {
            (void)sum({x}, {.axis = {1, -1}});
        },
        "kiln: ReductionKernel 'sum': axis -1 is repeated");
    expect_error<kiln::TypeError>(
        [&] {
            (void)sum({x, x, x});
        },
        "kiln: ReductionKernel 'sum': takes 1 inputs (then 1 outputs, optionally), got 3 "
        "arguments");
    expect_error<kiln::ShapeError>(
        [&] { (void)sum({x}, {.axis = 1, .out = {kiln::zeros({3}, kiln::float32)}}); },
        "kiln: ReductionKernel 'sum': output 'y' has shape (3,) but the result's shape is (2,)");
    EXPECT_THROW((void)sum({x}, {.axis = 1, .out = {kiln::zeros({2}, kiln::float64)}}),
                 kiln::TypeError)
        << "the output binds T to float64, the input is float32";
    const ReductionKernel dot("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "dot");
    expect_error<kiln::ShapeError>(
        [&] {
            (void)dot({x, kiln::zeros({4}, kiln::float32)});
        },
        "kiln: ReductionKernel 'dot': inputs could not be broadcast together with shapes (2, 3) "
        "(4,)");
    const ndarray out = kiln::zeros({}, kiln::float32);
    expect_error<kiln::TypeError>(
        [&] {
            (void)sum({x, out}, {.out = {out}});
        },
        "kiln: ReductionKernel 'sum': outputs were given both as arguments and as out=");
}

TEST(ReductionKernel, BadDefinitionsAreClearErrorsWithoutADevice) {
    expect_error<kiln::Error>(
        [] { (void)ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "my sum"); },
        "kiln: ReductionKernel: 'my sum' is not a valid kernel name (expected a C identifier)");
    expect_error<kiln::Error>(
        [] { (void)ReductionKernel("raw T x", "T y", "x", "a + b", "y = a", "0", "r"); },
        "kiln: ReductionKernel 'r': parameter 'x' is raw, but a reduction reads and writes its "
        "arrays per element (expected no raw parameters)");
    expect_error<kiln::TypeError>(
        [] {
            (void)ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "r",
                                  {.reduce_type = "quad"});
        },
        "kiln: ReductionKernel 'r': reduce_type entry 'quad' is neither a dtype name, the C type "
        "of one, nor a type placeholder of the parameters");
    expect_error<kiln::TypeError>(
        [] {
            (void)ReductionKernel("T x", "T y, T z", "x", "a + b", "y = a", "0", "two",
                                  {.reduce_type = "float64"});
        },
        "kiln: ReductionKernel 'two': has 2 outputs, so reduce_type must list one type per tuple "
        "member (or be empty for one member per output)");
    expect_error<kiln::Error>(
        [] { (void)ReductionKernel("T a", "T y", "a", "a + b", "y = a", "0", "r"); },
        "kiln: ReductionKernel 'r': in_params entry 1 'T a': 'a' is reserved: a and b are the "
        "operands of a reduction (expected a name other than i, a, b, a C++ keyword or one "
        "starting with '_')");
}

}  // namespace
