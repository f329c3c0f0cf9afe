// The device memory pools on a real GPU: CuPy's statistics, limits and out-of-memory (in the
// middle of a chain of routines too), matmul's workspace, stream-ordered reuse, pinned staging
// overlapping a kernel, the async pool, and a threaded stress test.
#include "core/backend.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/test_kernels.hpp"
#include "tests/support/use_allocator.hpp"

#include <kiln/kiln.hpp>
#include <kiln/memory_pool.hpp>
#include <kiln/ndarray.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using kiln::test::spin_cycles;
using kiln::test::TestKernels;

using kiln::test::UseAllocator;

// CuPy's documented example: a 400-byte array makes used_bytes and total_bytes 512.
TEST(MemoryPool, CupyStatisticsExample) {
    KILN_REQUIRE_DEVICE();
    kiln::MemoryPool pool;
    const UseAllocator use(pool);
    {
        const kiln::ndarray a = kiln::empty({100}, kiln::float32);
        EXPECT_EQ(a.nbytes(), 400U);
        EXPECT_EQ(pool.used_bytes(), 512U);
        EXPECT_EQ(pool.total_bytes(), 512U);
        EXPECT_EQ(pool.n_free_blocks(), 0U);
    }
    EXPECT_EQ(pool.used_bytes(), 0U);
    EXPECT_EQ(pool.total_bytes(), 512U);
    EXPECT_EQ(pool.free_bytes(), 512U);
    EXPECT_EQ(pool.n_free_blocks(), 1U);
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
    EXPECT_EQ(&kiln::get_allocator(), &pool);
}

TEST(MemoryPool, LimitAndOutOfMemory) {
    KILN_REQUIRE_DEVICE();
    kiln::MemoryPool pool;
    const UseAllocator use(pool);
    pool.set_limit(1 << 20);
    EXPECT_EQ(pool.get_limit(), 1U << 20);
    {
        const kiln::ndarray half_mib = kiln::empty({1 << 19}, kiln::uint8);
        try {
            const kiln::ndarray too_much = kiln::empty({1 << 20}, kiln::uint8);
            FAIL() << "expected kiln::OutOfMemory";
        } catch (const kiln::OutOfMemory& e) {
            EXPECT_EQ(e.requested(), 1U << 20);
            EXPECT_EQ(e.limit(), 1U << 20);
            EXPECT_EQ(e.used(), 1U << 19);
        }
    }
    // The cached half MiB is released and the retry succeeds.
    EXPECT_NO_THROW((void)kiln::empty({(1 << 20) - 4096}, kiln::uint8));

    const auto total = kiln::Device::current().properties().total_memory;
    pool.set_limit_fraction(0.5);
    EXPECT_EQ(pool.get_limit(), total / 2);
    EXPECT_THROW(pool.set_limit_fraction(1.5), kiln::Error);

    pool.set_limit(0);
    EXPECT_EQ(pool.get_limit(), 0U);
    try {
        const kiln::ndarray huge = kiln::empty({static_cast<std::int64_t>(total) * 2}, kiln::uint8);
        FAIL() << "expected kiln::OutOfMemory from the device";
    } catch (const kiln::OutOfMemory& e) {
        EXPECT_EQ(e.requested(), total * 2);
        EXPECT_EQ(e.limit(), total);
    }
    EXPECT_NO_THROW((void)kiln::empty({1024}));  // the device is usable after the failure
}

TEST(MemoryPool, LimitFromTheEnvironment) {
    KILN_REQUIRE_DEVICE();
    setenv("KILN_GPU_MEMORY_LIMIT", "25%", 1);
    const kiln::MemoryPool quarter;
    setenv("KILN_GPU_MEMORY_LIMIT", "123456", 1);
    const kiln::MemoryPool bytes;
    setenv("KILN_GPU_MEMORY_LIMIT", "lots", 1);
    EXPECT_THROW(kiln::MemoryPool{}, kiln::Error);
    unsetenv("KILN_GPU_MEMORY_LIMIT");
    EXPECT_EQ(quarter.get_limit(), kiln::Device::current().properties().total_memory / 4);
    EXPECT_EQ(bytes.get_limit(), 123456U);
}

// As in CuPy, a limit of 0 is no limit: set_limit(0), set_limit_fraction(0) and
// KILN_GPU_MEMORY_LIMIT=0 or 0% lift a limit, and get_limit() then reports 0.
TEST(MemoryPool, ZeroMeansNoLimitAsInCupy) {
    KILN_REQUIRE_DEVICE();
    constexpr std::int64_t mib = 1 << 20;
    kiln::MemoryPool pool;
    const UseAllocator use(pool);
    pool.set_limit(mib);
    EXPECT_THROW((void)kiln::empty({64 * mib}, kiln::uint8), kiln::OutOfMemory);
    pool.set_limit(0);
    EXPECT_EQ(pool.get_limit(), 0U);
    {
        const kiln::ndarray a = kiln::empty({64 * mib}, kiln::uint8);
        EXPECT_GE(pool.used_bytes(), 64U * mib);
    }
    pool.set_limit(mib);
    pool.set_limit_fraction(0.0);
    EXPECT_EQ(pool.get_limit(), 0U);
    EXPECT_NO_THROW((void)kiln::empty({64 * mib}, kiln::uint8));

    for (const char* text : {"0", "0%"}) {
        setenv("KILN_GPU_MEMORY_LIMIT", text, 1);
        kiln::MemoryPool from_env;
        unsetenv("KILN_GPU_MEMORY_LIMIT");
        EXPECT_EQ(from_env.get_limit(), 0U) << text;
        const UseAllocator use_env(from_env);
        EXPECT_NO_THROW((void)kiln::empty({64 * mib}, kiln::uint8)) << text;
    }
}

// x (n x n float64) through a chain of routines, each allocating its result: 2x + 1, the
// column sums of (2x + 1) x, their running sum, and x (2x + 1).
struct Chain {
    std::vector<double> running;
    std::vector<double> product;
};

Chain run_chain(const kiln::ndarray& x) {
    const kiln::ndarray scaled = kiln::add(kiln::multiply(x, 2.0), 1.0);
    const kiln::ndarray sums = kiln::sum(kiln::multiply(scaled, x), {.axis = 0});
    const kiln::ndarray running = kiln::cumsum(sums);
    const kiln::ndarray product = kiln::matmul(x, scaled);
    return {running.get<double>(), product.get<double>()};
}

// The same on the host, from the definitions.
Chain host_chain(const std::vector<double>& x, std::size_t n) {
    Chain out{std::vector<double>(n), std::vector<double>(n * n)};
    double total = 0;
    for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t i = 0; i < n; ++i) {
            total += (2 * x[i * n + j] + 1) * x[i * n + j];
        }
        out.running[j] = total;
    }
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            for (std::size_t k = 0; k < n; ++k) {
                out.product[i * n + j] += x[i * n + k] * (2 * x[k * n + j] + 1);
            }
        }
    }
    return out;
}

// Running out of memory in the middle of a chain, at a later step under each higher limit (from
// room for x and one result up): OutOfMemory names the request and the device, x keeps its
// values, nothing the chain took stays in use, and once the pool's blocks are freed and the limit
// is raised the chain gives the host's answer. Values are quarters, so every sum is exact.
TEST(MemoryPool, OutOfMemoryInTheMiddleOfAChain) {
    KILN_REQUIRE_DEVICE();
    // The chain's temporaries are its premise; lazy fusion would fuse them away.
    const kiln::LazyFusionScope eager(false);
    constexpr std::size_t n = 128;
    constexpr std::size_t bytes = n * n * sizeof(double);
    std::vector<double> values(n * n);
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = static_cast<double>(static_cast<std::int64_t>((i * 37) % 19) - 9) / 4;
    }
    const Chain expected = host_chain(values, n);
    kiln::MemoryPool pool;
    const UseAllocator use(pool);
    const auto extent = static_cast<std::int64_t>(n);
    const kiln::ndarray x = kiln::array(values, kiln::Shape{extent, extent});
    const int device = kiln::Device::current().id();
    std::vector<std::size_t> failed_requests;
    for (std::size_t limit = 2 * bytes; limit <= 6 * bytes; limit += bytes / 2) {
        pool.set_limit(limit);
        try {
            const Chain got = run_chain(x);
            EXPECT_EQ(got.running, expected.running) << "limit " << limit;
            EXPECT_EQ(got.product, expected.product) << "limit " << limit;
            break;
        } catch (const kiln::OutOfMemory& e) {
            failed_requests.push_back(e.requested());
            EXPECT_EQ(e.limit(), limit);
            EXPECT_EQ(e.device(), std::optional<int>(device));
            EXPECT_NE(std::string(e.what()).find("allocating " + std::to_string(e.requested()) +
                                                 " bytes on device " + std::to_string(device)),
                      std::string::npos)
                << e.what();
        }
        kiln::Device::current().synchronize();
        EXPECT_EQ(x.get<double>(), values) << "limit " << limit;
        EXPECT_EQ(pool.used_bytes(), bytes) << "only x is in use; limit " << limit;
        pool.free_all_blocks();
        EXPECT_EQ(pool.total_bytes(), bytes) << "limit " << limit;
    }
    ASSERT_GE(failed_requests.size(), 2U);
    EXPECT_EQ(failed_requests.front(), bytes) << "2x + 1 does not fit beside x and 2x";
    EXPECT_TRUE(std::any_of(failed_requests.begin(), failed_requests.end(),
                            [&](std::size_t requested) { return requested < bytes; }))
        << "a later step's smaller request (the sums) failed too";

    pool.set_limit(std::size_t{64} << 20);  // room for a BLAS workspace too
    const Chain got = run_chain(x);
    EXPECT_EQ(got.running, expected.running);
    EXPECT_EQ(got.product, expected.product);
}

// matmul takes scratch memory for a BLAS only where the BLAS takes it from kiln: on the host,
// which runs kiln's own kernel, a 2 x 3 by 3 x 2 product adds its 16-byte result (one 512-byte
// block) to the pool and nothing else; a GPU's cuBLAS takes at most its 32 MiB workspace.
TEST(MemoryPool, SmallMatmulTakesNoUnusedWorkspace) {
    KILN_REQUIRE_DEVICE();
    kiln::MemoryPool pool;
    const UseAllocator use(pool);
    const kiln::ndarray a = kiln::array(std::vector<float>{1, 2, 3, 4, 5, 6}, kiln::Shape{2, 3});
    const kiln::ndarray b = kiln::array(std::vector<float>{1, 0, 0, 1, 1, 1}, kiln::Shape{3, 2});
    const std::size_t used = pool.used_bytes();
    const std::size_t total = pool.total_bytes();
    const kiln::ndarray c = kiln::matmul(a, b);
    EXPECT_EQ(c.get<float>(), (std::vector<float>{4, 5, 10, 11}));
    EXPECT_EQ(pool.used_bytes() - used, 512U);
    if (kiln::test::is_host()) {
        EXPECT_EQ(pool.total_bytes() - total, 512U);
    } else {
        EXPECT_LE(pool.total_bytes() - total, 512U + (32U << 20));
    }
}

// A block freed on stream A after A's slow write is handed to stream B; B must see the write.
TEST(MemoryPool, BlockReusedOnAnotherStreamWaitsForTheFirst) {
    KILN_REQUIRE_DEVICE();
    kiln::MemoryPool pool;
    TestKernels kernels;
    kiln::Stream a(true);
    kiln::Stream b(true);
    auto* block = static_cast<int*>(pool.allocate(sizeof(int), a));
    kernels.spin(a, spin_cycles(30));
    kernels.store(a, block, 7);
    pool.deallocate(block, sizeof(int), a);
    auto* again = static_cast<int*>(pool.allocate(sizeof(int), b));
    ASSERT_EQ(again, block) << "the pool should reuse the only cached block";
    auto* seen = static_cast<int*>(pool.allocate(sizeof(int), b));
    kernels.copy_int(b, again, seen);
    int host = 0;
    kiln::detail::backend().copy_async(&host, seen, sizeof host, b.view());
    b.synchronize();
    EXPECT_EQ(host, 7);
    pool.deallocate(again, sizeof(int), b);
    pool.deallocate(seen, sizeof(int), b);
}

// An upload on stream B through pinned staging completes while a kernel still runs on A.
TEST(MemoryPool, PinnedStagingOverlapsAKernelOnAnotherStream) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_UNDER_SANITIZER(kiln::test::times_device_against_host);
    TestKernels kernels;
    kiln::Stream busy(true);
    kiln::Stream copies(true);
    std::vector<float> host(1 << 20, 1.5F);
    kernels.spin(busy, spin_cycles(300));
    const kiln::ndarray a = kiln::array(std::span<const float>(host), {1 << 20}, copies);
    std::vector<float> back(host.size());
    a.get(std::span<float>(back), copies);
    copies.synchronize();
    EXPECT_FALSE(busy.done()) << "the copies waited for the kernel on the other stream";
    EXPECT_EQ(back, host);
    busy.synchronize();
    EXPECT_GT(kiln::get_default_pinned_memory_pool().total_bytes(), 0U);
}

TEST(MemoryPool, AsyncPoolAllocatesInStreamOrder) {
    KILN_REQUIRE_DEVICE();
    if (!kiln::detail::backend().supports_memory_pools(kiln::Device::current().id())) {
        EXPECT_THROW(kiln::MemoryAsyncPool{}, kiln::Error);
        GTEST_SKIP() << "this device does not support stream-ordered memory pools";
    }
    kiln::MemoryAsyncPool pool;
    const UseAllocator use(pool);
    kiln::Stream stream;
    const kiln::StreamGuard current(stream);
    const kiln::ndarray a = kiln::arange(1000);
    EXPECT_EQ(a.get<std::int64_t>()[999], 999);
}

// The per-thread default stream names a different stream on each thread: a block one thread frees
// on it must not reach another thread while the first thread's work on it is still running.
TEST(MemoryPool, PerThreadStreamsDoNotShareBlocksEarly) {
    KILN_REQUIRE_DEVICE();
    kiln::MemoryPool pool;
    TestKernels kernels;
    const int device = kiln::Device::current().id();
    int* freed = nullptr;
    std::thread([&] {
        kiln::Device(device).use();
        const kiln::StreamView mine = kiln::per_thread_stream();
        freed = static_cast<int*>(pool.allocate(sizeof(int), mine));
        kernels.spin(mine, spin_cycles(50));
        kernels.store(mine, freed, 7);
        pool.deallocate(freed, sizeof(int), mine);
    }).join();
    int seen = 0;
    std::thread([&] {
        kiln::Device(device).use();
        const kiln::StreamView mine = kiln::per_thread_stream();
        auto* block = static_cast<int*>(pool.allocate(sizeof(int), mine));
        kernels.store(mine, block, 1);
        kiln::detail::backend().copy_async(&seen, block, sizeof seen, mine);
        kiln::synchronize(mine);
        pool.deallocate(block, sizeof(int), mine);
    }).join();
    EXPECT_EQ(seen, 1) << "the first thread's pending store overwrote the reused block";
}

// An array can outlive the stream it was allocated on; the pool must keep working.
TEST(MemoryPool, ArraysOutlivingTheirStream) {
    KILN_REQUIRE_DEVICE();
    kiln::MemoryPool pool;
    const UseAllocator use(pool);
    std::optional<kiln::ndarray> survivor;
    {
        kiln::Stream gone(true);
        const kiln::StreamGuard on(gone);
        survivor = kiln::arange(1000);
        const kiln::ndarray freed_with_the_stream = kiln::arange(2000);
    }
    kiln::Stream next(true);
    const kiln::StreamGuard on(next);
    EXPECT_NO_THROW((void)kiln::arange(2000).get<std::int64_t>());
    EXPECT_EQ(survivor->get<std::int64_t>()[999], 999);
    survivor.reset();  // freed under the destroyed stream's handle
    EXPECT_EQ(kiln::arange(1000).get<std::int64_t>()[999], 999);
}

// 8 threads, 10,000 allocate/free pairs each, on 4 streams: nothing leaks and the statistics
// stay consistent.
TEST(MemoryPool, ThreadedStress) {
    KILN_REQUIRE_DEVICE();
    kiln::MemoryPool pool;
    std::vector<kiln::Stream> streams;
    for (int i = 0; i < 4; ++i) {
        streams.emplace_back(true);
    }
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            kiln::Device(0).use();
            std::mt19937 random(t);
            std::uniform_int_distribution<std::size_t> size(1, 1 << 16);
            const kiln::StreamView stream = streams[t % 4];
            for (int i = 0; i < 10'000; ++i) {
                const std::size_t bytes = size(random);
                void* p = pool.allocate(bytes, stream);
                pool.deallocate(p, bytes, stream);
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    EXPECT_EQ(pool.used_bytes(), 0U);
    EXPECT_EQ(pool.free_bytes(), pool.total_bytes());
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
}

}  // namespace
