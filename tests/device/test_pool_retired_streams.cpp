// The device pool after its streams are destroyed: no path may touch a destroyed stream (each of
// these crashed or could crash before streams were retired from the pools).
#include "core/backend.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/test_kernels.hpp"

#include <kiln/kiln.hpp>
#include <kiln/memory_pool.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <random>
#include <thread>
#include <vector>

namespace {

using kiln::test::spin_cycles;
using kiln::test::TestKernels;

constexpr std::size_t mib = std::size_t{1} << 20U;

// The reproduction up to the crash: s1 frees 1 MiB, s2 reuses its front 512 KiB and frees
// it; the caller then destroys s1, s2 or both.
struct Borrowed {
    std::optional<kiln::Stream> s1{std::in_place, true};
    std::optional<kiln::Stream> s2{std::in_place, true};

    explicit Borrowed(kiln::MemoryPool& pool) {
        void* whole = pool.allocate(mib, *s1);
        s1->synchronize();
        pool.deallocate(whole, mib, *s1);
        void* front = pool.allocate(mib / 2, *s2);
        EXPECT_EQ(front, whole) << "s2 should reuse the front of s1's chunk";
        s2->synchronize();
        pool.deallocate(front, mib / 2, *s2);
    }
};

TEST(PoolRetiredStreams, FreeAllBlocksAfterTheBorrowerIsDestroyed) {
    KILN_REQUIRE_DEVICE();
    kiln::MemoryPool pool;
    Borrowed streams(pool);
    streams.s2.reset();
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
}

TEST(PoolRetiredStreams, OutOfMemoryRetryAfterTheBorrowerIsDestroyed) {
    KILN_REQUIRE_DEVICE();
    kiln::MemoryPool pool;
    pool.set_limit(2 * mib);
    Borrowed streams(pool);
    streams.s2.reset();
    void* big = pool.allocate(2 * mib, *streams.s1);  // only after the cached chunk goes back
    EXPECT_EQ(pool.total_bytes(), 2 * mib);
    pool.deallocate(big, 2 * mib, *streams.s1);
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
}

TEST(PoolRetiredStreams, LenderDestroyedFirst) {
    KILN_REQUIRE_DEVICE();
    kiln::MemoryPool pool;
    Borrowed streams(pool);
    streams.s1.reset();
    void* whole = pool.allocate(mib, *streams.s2);
    pool.deallocate(whole, mib, *streams.s2);
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
    streams.s2.reset();
    pool.free_all_blocks();
}

// Memory freed on a stream kiln did not create, once its ExternalStream has ended and the stream
// is destroyed: a new stream borrows it and the pool releases it without touching the old handle.
// (A bare StreamView here left the block owed to a dead handle, and a later borrower recorded an
// event on it: a SIGSEGV when eight threads later allocated on new streams.)
TEST(PoolRetiredStreams, ExternalStreamEndedThenDestroyed) {
    KILN_REQUIRE_DEVICE();
    kiln::MemoryPool pool;
    auto& gpu = kiln::detail::backend();
    void* native = gpu.create_stream(gpu.current_device(), true, 0);
    void* whole = nullptr;
    {
        const kiln::ExternalStream external(native);
        whole = pool.allocate(mib, external);
        TestKernels().spin(external, spin_cycles(5));
        pool.deallocate(whole, mib, external);
    }
    gpu.destroy_stream(kiln::StreamView{native});
    const kiln::Stream borrower(true);
    void* front = pool.allocate(mib / 2, borrower);
    EXPECT_EQ(front, whole) << "the ended stream's block is idle, so any stream may take it";
    pool.deallocate(front, mib / 2, borrower);
    borrower.synchronize();
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
}

TEST(PoolRetiredStreams, BothDestroyed) {
    KILN_REQUIRE_DEVICE();
    kiln::MemoryPool pool;
    {
        Borrowed streams(pool);
        streams.s2.reset();
        streams.s1.reset();
    }
    const kiln::Stream next(true);
    void* again = pool.allocate(mib, next);
    EXPECT_EQ(pool.total_bytes(), mib) << "the idle chunk is reused whole";
    pool.deallocate(again, mib, next);
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
}

// A kernel on s1 still writes the block when s1 is dropped: destroying s1 waits for it, so the
// block another stream takes next holds that stream's value, not the late write.
TEST(PoolRetiredStreams, DestroyedWhileAKernelStillWritesTheBlock) {
    KILN_REQUIRE_DEVICE();
    kiln::MemoryPool pool;
    TestKernels kernels;
    int* block = nullptr;
    {
        const kiln::Stream s1(true);
        block = static_cast<int*>(pool.allocate(sizeof(int), s1));
        kernels.spin(s1, spin_cycles(50));
        kernels.store(s1, block, 7);
        pool.deallocate(block, sizeof(int), s1);
    }
    const kiln::Stream s2(true);
    auto* again = static_cast<int*>(pool.allocate(sizeof(int), s2));
    ASSERT_EQ(again, block);
    kernels.store(s2, again, 9);
    int host = 0;
    kiln::detail::backend().copy_async(&host, again, sizeof host, s2.view());
    s2.synchronize();
    EXPECT_EQ(host, 9);
    pool.deallocate(again, sizeof(int), s2);
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
}

// Blocks of the per-thread default stream (filed under the null stream) beside a destroyed
// stream's, in one chunk.
TEST(PoolRetiredStreams, PerThreadDefaultStreamBesideADestroyedStream) {
    KILN_REQUIRE_DEVICE();
    kiln::MemoryPool pool;
    const kiln::StreamView per_thread = kiln::per_thread_stream();
    void* whole = pool.allocate(mib, per_thread);
    pool.deallocate(whole, mib, per_thread);
    {
        const kiln::Stream gone(true);
        void* front = pool.allocate(mib / 2, gone);
        EXPECT_EQ(front, whole);
        pool.deallocate(front, mib / 2, gone);
    }
    void* again = pool.allocate(mib, per_thread);
    EXPECT_EQ(again, whole) << "the destroyed stream's half merged back into the chunk";
    pool.deallocate(again, mib, per_thread);
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
}

// 8 threads create and destroy streams while allocating on them, freeing some blocks after their
// stream is gone and some on another thread's live stream.
TEST(PoolRetiredStreams, ThreadsCreateAndDestroyStreamsWhileAllocating) {
    KILN_REQUIRE_DEVICE();
    kiln::MemoryPool pool;
    const int device = kiln::Device::current().id();
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            try {
                kiln::Device(device).use();
                std::mt19937 random(static_cast<std::uint32_t>(t));
                struct Outliving {
                    void* ptr;
                    std::size_t bytes;
                    kiln::StreamView stream;
                };
                std::vector<Outliving> outliving;
                for (int life = 0; life < 50; ++life) {
                    const kiln::Stream mine(true);
                    for (int i = 0; i < 20; ++i) {
                        const std::size_t bytes = 512 * (1 + random() % 256);
                        void* p = pool.allocate(bytes, mine);
                        if (i % 5 == 0) {
                            outliving.push_back({p, bytes, mine.view()});
                        } else {
                            pool.deallocate(p, bytes, mine);
                        }
                    }
                    if (life % 10 == 0) {
                        pool.free_all_blocks();
                    }
                }
                // Freed under the handles of destroyed (or reused) streams.
                for (const Outliving& block : outliving) {
                    pool.deallocate(block.ptr, block.bytes, block.stream);
                }
            } catch (...) {
                ++failures;
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(pool.used_bytes(), 0U);
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
}

}  // namespace
