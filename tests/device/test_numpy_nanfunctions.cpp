// NumPy's tests of the NaN-ignoring reductions kiln has (nansum, nanprod, nanmean, nanvar,
// nanstd, nanmax, nanmin), translated case by case from numpy/lib/tests/test_nanfunctions.py, and
// CuPy's from tests/cupy_tests/statistics_tests/test_meanvar.py (each test names its source).
// References are NumPy's definitions computed on the host; NumPy's warnings have no counterpart.
#include "tests/support/backend_under_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

namespace {

using kiln::DType;
using kiln::ndarray;
using kiln::Shape;
using Reduction = ndarray (*)(const ndarray&, const kiln::ReduceOptions&);

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// test_nanfunctions.py's _ndat, and its rows without NaN (_rdat).
const std::vector<double> ndat = {0.6244, nan,     0.2692, 0.0116, nan,    0.1170,   //
                                  0.5351, -0.9403, nan,    0.2100, 0.4759, 0.2833,   //
                                  nan,    nan,     nan,    0.1042, nan,    -0.5954,  //
                                  0.1610, nan,     nan,    0.1859, 0.3146, nan};
const std::vector<std::vector<double>> rdat = {{0.6244, 0.2692, 0.0116, 0.1170},
                                               {0.5351, -0.9403, 0.2100, 0.4759, 0.2833},
                                               {0.1042, -0.5954},
                                               {0.1610, 0.1859, 0.3146}};

ndarray ndat_array() {
    return kiln::array(ndat, Shape{4, 6});
}

// NumPy's var of `values` with `ddof` (count - ddof <= 0: NaN, as nanvar gives).
double variance(const std::vector<double>& values, int ddof) {
    const auto n = static_cast<double>(values.size());
    if (n - ddof <= 0) {
        return nan;
    }
    double mean = 0;
    for (const double v : values) {
        mean += v / n;
    }
    double squares = 0;
    for (const double v : values) {
        squares += (v - mean) * (v - mean);
    }
    return squares / (n - ddof);
}

void expect_near_or_nan(const std::vector<double>& actual, const std::vector<double>& expected,
                        double tolerance) {
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
        if (std::isnan(expected[i])) {
            EXPECT_TRUE(std::isnan(actual[i])) << i << ": " << actual[i];
        } else {
            EXPECT_NEAR(actual[i], expected[i], tolerance) << i;
        }
    }
}

TEST(NumpyNanfunctions, ResultValuesAlongRows) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = ndat_array();
    std::vector<double> mins;
    std::vector<double> maxs;
    std::vector<double> sums;
    std::vector<double> prods;
    std::vector<double> means;
    for (const auto& row : rdat) {
        mins.push_back(*std::min_element(row.begin(), row.end()));
        maxs.push_back(*std::max_element(row.begin(), row.end()));
        double sum = 0;
        double prod = 1;
        for (const double v : row) {
            sum += v;
            prod *= v;
        }
        sums.push_back(sum);
        prods.push_back(prod);
        means.push_back(sum / static_cast<double>(row.size()));
    }
    // TestNanFunctions_MinMax.test_result_values and the test_result_values of
    // TestNanFunctions_SumProd and TestNanFunctions_MeanVarStd (SharedNanFunctionsTestsMixin).
    expect_near_or_nan(kiln::nanmin(a, {.axis = 1}).get<double>(), mins, 1e-12);
    expect_near_or_nan(kiln::nanmax(a, {.axis = 1}).get<double>(), maxs, 1e-12);
    expect_near_or_nan(kiln::nansum(a, {.axis = 1}).get<double>(), sums, 1e-12);
    expect_near_or_nan(kiln::nanprod(a, {.axis = 1}).get<double>(), prods, 1e-12);
    expect_near_or_nan(kiln::nanmean(a, {.axis = 1}).get<double>(), means, 1e-12);
    // TestNanFunctions_MeanVarStd.test_ddof: ddof 0 and 1 against var and std of each row.
    for (const int ddof : {0, 1}) {
        std::vector<double> vars;
        std::vector<double> stds;
        for (const auto& row : rdat) {
            vars.push_back(variance(row, ddof));
            stds.push_back(std::sqrt(variance(row, ddof)));
        }
        expect_near_or_nan(kiln::nanvar(a, {.axis = 1, .ddof = ddof}).get<double>(), vars, 1e-12);
        expect_near_or_nan(kiln::nanstd(a, {.axis = 1, .ddof = ddof}).get<double>(), stds, 1e-12);
    }
    // TestNanFunctions_MinMax.test_mutation (and the mixin's): the input is unchanged.
    const auto after = a.get<double>();
    for (std::size_t i = 0; i < ndat.size(); ++i) {
        EXPECT_TRUE(after[i] == ndat[i] || (std::isnan(after[i]) && std::isnan(ndat[i]))) << i;
    }
}

TEST(NumpyNanfunctions, DdofTooBigGivesNaN) {
    KILN_REQUIRE_DEVICE();
    // TestNanFunctions_MeanVarStd.test_ddof_too_big: a row with no more values than ddof is NaN
    // (not inf), for nanvar and nanstd and every ddof up to 4.
    const ndarray a = ndat_array();
    for (int ddof = 0; ddof < 5; ++ddof) {
        for (const Reduction function : std::vector<Reduction>{&kiln::nanvar, &kiln::nanstd}) {
            const auto result = function(a, {.axis = 1, .ddof = ddof}).get<double>();
            for (std::size_t row = 0; row < rdat.size(); ++row) {
                EXPECT_EQ(std::isnan(result[row]), ddof >= static_cast<int>(rdat[row].size()))
                    << "ddof " << ddof << ", row " << row << ": " << result[row];
            }
        }
    }
}

// Whether every element of a real array is NaN.
bool all_nan(const ndarray& r) {
    const auto values = r.astype(DType::float64).get<double>();
    return std::ranges::all_of(values, [](double v) { return std::isnan(v); });
}

TEST(NumpyNanfunctions, AllNaNSlices) {
    KILN_REQUIRE_DEVICE();
    // test_allnans of TestNanFunctions_MinMax, _SumProd and _MeanVarStd (float32 of its dtypes,
    // the (3, 3) array along axis 1, and the 0-d one for nanvar): min, max, mean, var and std give
    // NaN in the input's dtype; sum 0 and prod 1.
    const ndarray square = kiln::full({3, 3}, nan, DType::float32);
    for (const Reduction function : std::vector<Reduction>{
             &kiln::nanmin, &kiln::nanmax, &kiln::nanmean, &kiln::nanvar, &kiln::nanstd}) {
        const ndarray result = function(square, {.axis = 1});
        EXPECT_TRUE(all_nan(result));
        EXPECT_EQ(result.dtype(), DType::float32);
    }
    EXPECT_TRUE(all_nan(kiln::nanvar(kiln::full({}, nan, DType::float32))));
    const ndarray sum = kiln::nansum(square, {.axis = 1});
    EXPECT_EQ(sum.dtype(), DType::float32);
    EXPECT_EQ(sum.get<float>(), (std::vector<float>{0, 0, 0}));
    EXPECT_EQ(kiln::nanprod(square, {.axis = 1}).get<float>(), (std::vector<float>{1, 1, 1}));
    // Its complex dtypes: nanvar of complex64 is float32.
    const ndarray var = kiln::nanvar(kiln::full({3, 3}, nan, DType::complex64), {.axis = 1});
    EXPECT_EQ(var.dtype(), DType::float32);
    EXPECT_TRUE(all_nan(var));
}

TEST(NumpyNanfunctions, EmptyArrays) {
    KILN_REQUIRE_DEVICE();
    const ndarray mat = kiln::zeros({0, 3});
    // TestNanFunctions_SumProd.test_empty: the identity along the empty axis and overall.
    EXPECT_EQ(kiln::nansum(mat, {.axis = 0}).get<double>(), (std::vector<double>{0, 0, 0}));
    EXPECT_EQ(kiln::nanprod(mat, {.axis = 0}).get<double>(), (std::vector<double>{1, 1, 1}));
    EXPECT_EQ(kiln::nansum(mat).get<double>(), (std::vector<double>{0}));
    // TestNanFunctions_MeanVarStd.test_empty (nanmean and nanvar): NaN along the empty axis and
    // overall; an empty result along the other.
    for (const Reduction function : std::vector<Reduction>{&kiln::nanmean, &kiln::nanvar}) {
        EXPECT_TRUE(all_nan(function(mat, {.axis = 0})));
        EXPECT_TRUE(all_nan(function(mat, {})));
    }
    EXPECT_EQ(kiln::nanvar(mat, {.axis = 1}).size(), 0);
}

TEST(NumpyNanfunctions, KeepdimsOutAndDtypes) {
    KILN_REQUIRE_DEVICE();
    std::vector<double> identity(9, 0.0);
    identity[0] = identity[4] = identity[8] = 1;
    const ndarray eye = kiln::array(identity, Shape{3, 3});
    // TestNanFunctions_MinMax.test_keepdims: as many dimensions as min and max keep.
    for (const kiln::Axis axis : {kiln::Axis{}, kiln::Axis{0}, kiln::Axis{1}}) {
        EXPECT_EQ(kiln::nanmin(eye, {.axis = axis, .keepdims = true}).ndim(), 2);
        EXPECT_EQ(kiln::nanmax(eye, {.axis = axis, .keepdims = true}).ndim(), 2);
    }
    // TestNanFunctions_MinMax.test_out: the result goes into out, and equals min's and max's.
    const ndarray out = kiln::zeros({3});
    (void)kiln::nanmin(eye, {.axis = 1, .out = out});
    EXPECT_EQ(out.get<double>(), (std::vector<double>{0, 0, 0}));
    (void)kiln::nanmax(eye, {.axis = 1, .out = out});
    EXPECT_EQ(out.get<double>(), (std::vector<double>{1, 1, 1}));
    // test_dtype_from_input (float16, float32 and float64 of its codes): min and max keep the
    // dtype.
    for (const DType dtype : {DType::float16, DType::float32}) {
        EXPECT_EQ(kiln::nanmax(eye.astype(dtype), {.axis = 1}).dtype(), dtype);
        EXPECT_EQ(kiln::nanmin(eye.astype(dtype)).dtype(), dtype);
    }
    // TestNanFunctions_MeanVarStd.test_dtype_error and test_out_dtype_error: bool and integer
    // dtypes or outs cannot take a floating mean or variance.
    const ndarray a = ndat_array();
    for (const Reduction function :
         std::vector<Reduction>{&kiln::nanmean, &kiln::nanvar, &kiln::nanstd}) {
        for (const DType dtype : {DType::bool_, DType::int64}) {
            EXPECT_THROW((void)function(a, {.axis = 1, .dtype = dtype}), kiln::TypeError);
            EXPECT_THROW((void)function(a, {.axis = 1, .out = kiln::empty({4}, dtype)}),
                         kiln::TypeError);
        }
    }
    // The mixin's test_scalar: of a 0-d zero, each gives 0.
    const ndarray zero = kiln::zeros({});
    for (const Reduction function : std::vector<Reduction>{
             &kiln::nansum, &kiln::nanmean, &kiln::nanvar, &kiln::nanstd, &kiln::nanmax}) {
        EXPECT_EQ(function(zero, {}).get<double>(), (std::vector<double>{0}));
    }
}

TEST(NumpyNanfunctions, IntegersAreThePlainReductions) {
    KILN_REQUIRE_DEVICE();
    // TestNanFunctions_NumberTypes.test_nanfunc for its 1-d array and int16 of its dtypes: each
    // nan-form equals its plain reduction, in value and dtype.
    const ndarray mat = kiln::array(std::vector<std::int16_t>{127, 39, 93, 87, 46});
    const std::vector<std::pair<Reduction, Reduction>> pairs = {
        {&kiln::nansum, &kiln::sum}, {&kiln::nanprod, &kiln::prod}, {&kiln::nanmean, &kiln::mean},
        {&kiln::nanvar, &kiln::var}, {&kiln::nanstd, &kiln::std},   {&kiln::nanmax, &kiln::max},
        {&kiln::nanmin, &kiln::min}};
    for (const auto& [nanfunc, func] : pairs) {
        const ndarray expected = func(mat, {});
        const ndarray actual = nanfunc(mat, {});
        EXPECT_EQ(actual.dtype(), expected.dtype());
        EXPECT_EQ(actual.astype(DType::float64).get<double>(),
                  expected.astype(DType::float64).get<double>());
    }
}

// A (rows, cols) float64 array of distinct values with row 0 NaN, as CuPy's tests make it.
std::vector<double> with_nan_row(int rows, int cols) {
    std::vector<double> values;
    for (int i = 0; i < rows * cols; ++i) {
        values.push_back(i < cols ? nan : std::sin(i * 0.7) * 3);
    }
    return values;
}

TEST(NumpyNanfunctions, CupyNanVarStd) {
    KILN_REQUIRE_DEVICE();
    // test_meanvar.py: TestNanVarStd.test_nanvar and test_nanstd (shape (3, 4), float64 of its
    // dtypes, row 0 NaN; axis None, 0 and 1; ddof 0 and 1; keepdims both ways).
    const std::vector<double> values = with_nan_row(3, 4);
    const ndarray a = kiln::array(values, Shape{3, 4});
    for (const int ddof : {0, 1}) {
        for (const bool keepdims : {false, true}) {
            std::vector<double> rest(values.begin() + 4, values.end());
            std::vector<double> by_column;
            for (int c = 0; c < 4; ++c) {
                by_column.push_back(variance({values[4 + c], values[8 + c]}, ddof));
            }
            std::vector<double> by_row = {nan};
            for (int r = 1; r < 3; ++r) {
                by_row.push_back(variance(
                    std::vector<double>(values.begin() + r * 4, values.begin() + r * 4 + 4), ddof));
            }
            const std::vector<std::pair<kiln::Axis, std::vector<double>>> cases = {
                {{}, {variance(rest, ddof)}}, {0, by_column}, {1, by_row}};
            for (const auto& [axis, expected] : cases) {
                const kiln::ReduceOptions options{.axis = axis, .keepdims = keepdims, .ddof = ddof};
                const ndarray var = kiln::nanvar(a, options);
                EXPECT_EQ(var.ndim(), keepdims ? 2 : (axis.all() ? 0 : 1));
                expect_near_or_nan(var.get<double>(), expected, 1e-12);
                std::vector<double> roots;
                for (const double v : expected) {
                    roots.push_back(std::sqrt(v));
                }
                expect_near_or_nan(kiln::nanstd(a, options).get<double>(), roots, 1e-12);
            }
        }
    }

    // TestNanVarStdAdditional.test_nanvar_out and test_nanstd_out (shape (4, 5, 6), a NaN plane
    // and a NaN column; axis 0 into a float64 out).
    std::vector<double> cube(4 * 5 * 6);
    for (std::size_t i = 0; i < cube.size(); ++i) {
        const std::size_t j = (i / 6) % 5;
        cube[i] = i / 30 == 1 || j == 3 ? nan : std::cos(static_cast<double>(i)) * 2;
    }
    const ndarray c = kiln::array(cube, Shape{4, 5, 6});
    std::vector<double> expected_var;
    for (std::size_t k = 0; k < 30; ++k) {
        std::vector<double> column;
        for (std::size_t p = 0; p < 4; ++p) {
            if (!std::isnan(cube[p * 30 + k])) {
                column.push_back(cube[p * 30 + k]);
            }
        }
        expected_var.push_back(variance(column, 0));
    }
    const ndarray z = kiln::zeros({5, 6});
    (void)kiln::nanvar(c, {.axis = 0, .out = z});
    expect_near_or_nan(z.get<double>(), expected_var, 1e-12);
    (void)kiln::nanstd(c, {.axis = 0, .out = z});
    for (double& v : expected_var) {
        v = std::sqrt(v);
    }
    expect_near_or_nan(z.get<double>(), expected_var, 1e-12);

    // TestNanVarStdAdditional.test_nanvar_float16 and test_nanstd_float16: shaped_arange (4, 5)
    // (1..20) with a[0][0] NaN; nanvar along axis 0, nanstd along axis 1, rtol 1e-4.
    std::vector<double> arange(20);
    std::iota(arange.begin(), arange.end(), 1.0);
    arange[0] = nan;
    const ndarray h = kiln::array(arange, Shape{4, 5}).astype(DType::float16);
    std::vector<double> columns;
    for (int col = 0; col < 5; ++col) {
        std::vector<double> column;
        for (int row = col == 0 ? 1 : 0; row < 4; ++row) {
            column.push_back(arange[static_cast<std::size_t>(row * 5 + col)]);
        }
        columns.push_back(variance(column, 0));
    }
    const ndarray hv = kiln::nanvar(h, {.axis = 0});
    EXPECT_EQ(hv.dtype(), DType::float16);
    const auto hv_values = hv.astype(DType::float64).get<double>();
    for (std::size_t i = 0; i < columns.size(); ++i) {
        EXPECT_NEAR(hv_values[i], columns[i], 1e-4 * columns[i] + 1e-2) << i;
    }
    std::vector<double> rows;
    for (int row = 0; row < 4; ++row) {
        std::vector<double> r;
        for (int col = row == 0 ? 1 : 0; col < 5; ++col) {
            r.push_back(arange[static_cast<std::size_t>(row * 5 + col)]);
        }
        rows.push_back(std::sqrt(variance(r, 0)));
    }
    const auto hs = kiln::nanstd(h, {.axis = 1}).astype(DType::float64).get<double>();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        EXPECT_NEAR(hs[i], rows[i], 1e-3 * rows[i]) << i;
    }
}

}  // namespace
