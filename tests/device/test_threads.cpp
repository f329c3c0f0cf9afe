// Several host threads using kiln at once, each on its own stream: routines, kernels compiled for
// the first time by several threads, and the pool's per-stream bookkeeping, all at the same time.
#include "tests/support/backend_under_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <exception>
#include <string>
#include <thread>
#include <vector>

namespace {

using kiln::ndarray;

// Runs `work(i)` on `count` threads at once and rethrows the first exception any of them threw.
template <class Work>
void on_threads(int count, Work work) {
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(count));
    std::vector<std::thread> threads;
    threads.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        threads.emplace_back([&, i] {
            try {
                work(i);
            } catch (...) {
                errors[static_cast<std::size_t>(i)] = std::current_exception();
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    for (const std::exception_ptr& error : errors) {
        if (error) {
            std::rethrow_exception(error);
        }
    }
}

// 0 + 1 + ... + (n - 1), times three: sum(arange(n) + arange(n) * 2).
double expected_sum(std::int64_t n) {
    return 3.0 * static_cast<double>(n) * static_cast<double>(n - 1) / 2.0;
}

// One thread's routines on its own non-blocking stream: the result, read back as float64.
double routine_chain(kiln::DType dtype, std::int64_t n) {
    kiln::Stream stream(true);
    const kiln::StreamGuard on_stream(stream);
    const ndarray x = kiln::arange(0, n, 1, kiln::int64).astype(dtype);
    const ndarray y = kiln::add(x, kiln::multiply(x, 2));
    const ndarray total = kiln::sum(y).astype(kiln::float64);
    return total.get<double>().at(0);
}

TEST(Threads, RoutinesOnTheirOwnStreamsWithDistinctDtypes) {
    KILN_REQUIRE_DEVICE();
    const std::array dtypes = {kiln::float32, kiln::float64, kiln::int32,  kiln::int64,
                               kiln::int16,   kiln::uint32,  kiln::uint64, kiln::complex64};
    constexpr std::int64_t n = 1000;
    std::array<double, dtypes.size()> got{};
    for (int round = 0; round < 4; ++round) {
        on_threads(static_cast<int>(dtypes.size()), [&](int i) {
            got.at(static_cast<std::size_t>(i)) =
                routine_chain(dtypes.at(static_cast<std::size_t>(i)), n);
        });
        for (std::size_t i = 0; i < dtypes.size(); ++i) {
            EXPECT_EQ(got.at(i), expected_sum(n))
                << kiln::name(dtypes.at(i)) << ", round " << round;
        }
    }
}

TEST(Threads, FirstCompilesOfOneKernelRaceToTheSameCache) {
    KILN_REQUIRE_DEVICE();
    // A kernel no other test builds: every thread asks for it before any has it.
    const kiln::ElementwiseKernel kernel("T x, T y", "T z", "z = x * y + T(17)",
                                         "kiln_threads_first_compile");
    constexpr int threads = 8;
    std::array<std::vector<float>, threads> got{};
    on_threads(threads, [&](int i) {
        kiln::Stream stream(true);
        const kiln::StreamGuard on_stream(stream);
        const ndarray x = kiln::arange(0.0, 64.0, 1.0, kiln::float32);
        got.at(static_cast<std::size_t>(i)) =
            kernel({x, kiln::full({64}, static_cast<float>(i), kiln::float32)}).get<float>();
    });
    for (int i = 0; i < threads; ++i) {
        for (int j = 0; j < 64; ++j) {
            ASSERT_EQ(got.at(static_cast<std::size_t>(i)).at(static_cast<std::size_t>(j)),
                      static_cast<float>(j * i + 17))
                << "thread " << i << ", element " << j;
        }
    }
}

// matmul on several streams at once: one cuBLAS handle per device serves them all, each call with
// its own stream and workspace. The all-ones (n, n) matrix squared is n everywhere; thread i
// scales one side by i + 1.
TEST(Threads, MatmulsOnTheirOwnStreamsShareOneHandle) {
    KILN_REQUIRE_DEVICE();
    constexpr std::int64_t n = 384;
    constexpr int threads = 6;
    std::array<std::vector<double>, threads> results;
    on_threads(threads, [&](int i) {
        kiln::Stream stream(true);
        const kiln::StreamGuard on_stream(stream);
        for (int round = 0; round < 4; ++round) {
            const ndarray a = kiln::full({n, n}, static_cast<double>(i + 1));
            const ndarray b = kiln::ones({n, n});
            results.at(static_cast<std::size_t>(i)) = kiln::matmul(a, b).get<double>();
        }
    });
    for (int i = 0; i < threads; ++i) {
        const auto& c = results.at(static_cast<std::size_t>(i));
        ASSERT_EQ(c.size(), static_cast<std::size_t>(n * n));
        const double want = static_cast<double>(n * (i + 1));
        EXPECT_EQ(std::count(c.begin(), c.end(), want), n * n) << "thread " << i;
    }
}

}  // namespace
