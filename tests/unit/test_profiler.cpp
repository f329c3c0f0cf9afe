// kiln::profiler without a device: the statistics, the report's layout and argument checks.
#include "tests/support/expect_error.hpp"

#include <kiln/device.hpp>
#include <kiln/error.hpp>
#include <kiln/profiler.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

namespace {

using kiln::profiler::BenchmarkResult;
using kiln::profiler::summarize;
using kiln::test::expect_error;

// Closed forms: mean 5/2, population variance ((9 + 1 + 1 + 9) / 4) / 4 = 5/4.
TEST(Profiler, SummarizeGivesMeanPopulationStddevMinAndMax) {
    const std::vector<double> times{3.0, 1.0, 4.0, 2.0};
    const auto stats = summarize(times);
    EXPECT_DOUBLE_EQ(stats.mean, 2.5);
    EXPECT_DOUBLE_EQ(stats.stddev, std::sqrt(1.25));
    EXPECT_DOUBLE_EQ(stats.min, 1.0);
    EXPECT_DOUBLE_EQ(stats.max, 4.0);
}

TEST(Profiler, OneTimeHasNoSpread) {
    const std::vector<double> times{7.5e-6};
    const auto stats = summarize(times);
    EXPECT_DOUBLE_EQ(stats.mean, 7.5e-6);
    EXPECT_EQ(stats.stddev, 0.0);
    EXPECT_EQ(stats.min, stats.max);
}

// A small spread far from zero, where the mean of squares minus the squared mean cancels to
// nonsense (-384 here). Expected: NumPy's np.std([1e9 + 0.1, 1e9 + 0.2, 1e9 + 0.3]).
TEST(Profiler, SpreadKeepsItsPrecisionFarFromZero) {
    const std::vector<double> times{1e9 + 0.1, 1e9 + 0.2, 1e9 + 0.3};
    EXPECT_NEAR(summarize(times).stddev, 0.08164962889273894, 1e-9);
}

TEST(Profiler, SummarizeRefusesNoTimes) {
    expect_error<kiln::Error>([] { (void)summarize({}); },
                              "kiln: summarize: times is empty: expected at least one time");
}

// The expected lines were printed by NumPy with CuPy's documented layout:
// '{:<20}:'.format(name) + '    CPU:{:9.3f} us   +/-{:6.3f} (min:{:9.3f} / max:{:9.3f}) us'
// .format(mean, std, min, max) (times in us, std with ddof=0) + ' ' + the same for 'GPU-<id>'.
TEST(Profiler, ReportHasCupysLayoutInMicroseconds) {
    const BenchmarkResult result("my_func", 0, {10e-6, 12e-6, 14e-6}, {20e-6, 20e-6, 23e-6});
    EXPECT_EQ(result.to_string(),
              "my_func             :    CPU:   12.000 us   +/- 1.633 (min:   10.000 / max:   "
              "14.000) us     GPU-0:   21.000 us   +/- 1.414 (min:   20.000 / max:   23.000) us");
    std::ostringstream streamed;
    streamed << result;
    EXPECT_EQ(streamed.str(), result.to_string());
    EXPECT_EQ(result.repeats(), 3U);
    EXPECT_DOUBLE_EQ(result.gpu().mean, 21e-6);
}

TEST(Profiler, ReportLeavesOutTheSpreadOfOneRunAndKeepsLongNames) {
    const BenchmarkResult result("a_name_longer_than_twenty", 3, {1.5e-3}, {2.25e-3});
    EXPECT_EQ(result.to_string(),
              "a_name_longer_than_twenty:    CPU: 1500.000 us     GPU-3: 2250.000 us");
}

TEST(Profiler, ReportWidensForLongTimes) {
    const BenchmarkResult result("big", 1, {0.25, 0.5}, {1.0, 1.5});
    EXPECT_EQ(result.to_string(),
              "big                 :    CPU:375000.000 us   +/-125000.000 (min:250000.000 / "
              "max:500000.000) us     GPU-1:1250000.000 us   +/-250000.000 (min:1000000.000 / "
              "max:1500000.000) us");
}

TEST(Profiler, ResultNeedsOneCpuAndOneGpuTimePerRun) {
    expect_error<kiln::Error>(
        [] {
            (void)BenchmarkResult("f", 0, {1.0, 2.0}, {1.0});
        },
        "kiln: BenchmarkResult: cpu_times has 2 times and gpu_times 1: expected one of each per "
        "run");
    expect_error<kiln::Error>([] { (void)BenchmarkResult("f", 0, {}, {}); },
                              "kiln: BenchmarkResult: no times: expected at least one run");
}

// Arguments are checked before the device is looked for, so these hold with or without one.
TEST(Profiler, BenchmarkChecksItsArguments) {
    using kiln::profiler::benchmark;
    const auto nothing = [] {};
    expect_error<kiln::Error>([&] { (void)benchmark(nothing, 0); },
                              "kiln: benchmark: n_repeat must be at least 1, got 0");
    expect_error<kiln::Error>([&] { (void)benchmark(nothing, 10, -1); },
                              "kiln: benchmark: n_warmup must be non-negative, got -1");
    expect_error<kiln::Error>([] { (void)benchmark({}); },
                              "kiln: benchmark: fn is empty: expected a function to time");
    expect_error<kiln::Error>(
        [&] { (void)benchmark(nothing, 10, 0, "f", std::nullopt, 0.0); },
        "kiln: benchmark: max_duration must be a positive number of seconds, got 0.000000");
    expect_error<kiln::Error>(
        [&] {
            (void)benchmark(nothing, 10, 0, "f", std::nullopt,
                            std::numeric_limits<double>::quiet_NaN());
        },
        "kiln: benchmark: max_duration must be a positive number of seconds, got nan");
}

TEST(Profiler, BenchmarkWithoutADeviceIsNoDevice) {
    if (kiln::device_count() > 0) {
        GTEST_SKIP() << "a device is present";
    }
    int calls = 0;
    EXPECT_THROW((void)kiln::profiler::benchmark([&] { ++calls; }, 5, 1), kiln::NoDevice);
    EXPECT_EQ(calls, 0) << "fn ran although nothing could be timed";
}

}  // namespace
