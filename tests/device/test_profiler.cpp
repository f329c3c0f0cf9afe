// kiln::profiler::benchmark on a real GPU. Skips, saying why, without one.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/test_kernels.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using kiln::profiler::benchmark;
using kiln::test::spin_cycles;
using kiln::test::TestKernels;

void expect_ordered(const kiln::profiler::TimeStats& stats) {
    EXPECT_LE(stats.min, stats.mean);
    EXPECT_LE(stats.mean, stats.max);
    EXPECT_GE(stats.stddev, 0.0);
}

// A kernel that spins about 1 ms (at 2 GHz; clocks differ, so the bounds are wide).
TEST(Benchmark, TimesAKernelOnTheGivenStream) {
    KILN_REQUIRE_DEVICE();
    TestKernels kernels;
    kiln::Stream stream(/*non_blocking=*/true);
    constexpr int repeats = 20;
    const auto result =
        benchmark([&] { kernels.spin(stream, spin_cycles(1.0)); }, repeats, 2, "spin", stream);
    EXPECT_EQ(result.name(), "spin");
    EXPECT_EQ(result.device(), kiln::Device::current().id());
    ASSERT_EQ(result.repeats(), static_cast<std::size_t>(repeats));
    ASSERT_EQ(result.gpu_times().size(), static_cast<std::size_t>(repeats));
    for (std::size_t i = 0; i < result.repeats(); ++i) {
        EXPECT_GT(result.gpu_times()[i], 0.2e-3) << "run " << i;
        EXPECT_LT(result.gpu_times()[i], 50e-3) << "run " << i;
        EXPECT_GE(result.cpu_times()[i], 0.0) << "run " << i;
    }
    expect_ordered(result.cpu());
    expect_ordered(result.gpu());
    // Launching returns long before the kernel ends.
    EXPECT_LT(result.cpu().mean, result.gpu().mean);
    EXPECT_EQ(result.to_string().rfind("spin                :    CPU:", 0), 0U)
        << result.to_string();
    EXPECT_NE(result.to_string().find("GPU-" + std::to_string(result.device()) + ":"),
              std::string::npos);
}

TEST(Benchmark, NothingLaunchedTakesNearlyNoGpuTime) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_UNDER_SANITIZER(kiln::test::bounds_device_time);
    const auto result = benchmark([] {}, 100, 0, "empty");
    ASSERT_EQ(result.repeats(), 100U);
    EXPECT_GE(result.gpu().min, 0.0);
    EXPECT_LT(result.gpu().mean, 5e-4) << result;
    // The host backend stamps events on a stream's worker thread, which a loaded machine may
    // deschedule for milliseconds (CI, two cores, once 1 ms); a GPU stamps them itself.
    if (!kiln::test::is_host()) {
        EXPECT_LT(result.gpu().max, 1e-3) << result;
    }
    EXPECT_GE(result.cpu().min, 0.0);
    expect_ordered(result.gpu());
}

// The events go on the stream benchmark is given (default: the current one): work queued on
// another non-blocking stream is not in its GPU time. Events that waited for that work would make
// every run long, so the shortest runs are compared: on the host backend a loaded machine may
// deschedule the timed stream's worker while the other one spins (CI, once 4 runs of 10).
TEST(Benchmark, GpuTimeIsTheStreamsOwn) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_UNDER_SANITIZER(kiln::test::bounds_device_time);
    TestKernels kernels;
    kiln::Stream timed(/*non_blocking=*/true);
    kiln::Stream other(/*non_blocking=*/true);
    const auto spin_elsewhere = [&] { kernels.spin(other, spin_cycles(2.0)); };
    const kiln::StreamGuard current(timed);
    const auto result = benchmark(spin_elsewhere, 10, 1, "elsewhere");
    other.synchronize();
    const auto spun = benchmark([&] { kernels.spin(timed, spin_cycles(2.0)); }, 10, 1, "here");
    EXPECT_LT(result.gpu().min, spun.gpu().min / 4) << result << '\n' << spun;
}

// As CuPy's max_duration: the runs stop once the time is spent, after at least one.
TEST(Benchmark, MaxDurationEndsTheRunsEarly) {
    KILN_REQUIRE_DEVICE();
    TestKernels kernels;
    kiln::Stream stream(/*non_blocking=*/true);
    const auto result = benchmark([&] { kernels.spin(stream, spin_cycles(2.0)); }, 10000, 0,
                                  "bounded", stream, 20e-3);
    EXPECT_GE(result.repeats(), 1U);
    EXPECT_LT(result.repeats(), 100U);
}

TEST(Benchmark, WhatFnThrowsPassesThrough) {
    KILN_REQUIRE_DEVICE();
    int calls = 0;
    const auto failing = [&] {
        if (++calls == 3) {
            throw kiln::Error("fn failed");
        }
    };
    EXPECT_THROW((void)benchmark(failing, 10, 1), kiln::Error);
    EXPECT_EQ(calls, 3);
}

}  // namespace
