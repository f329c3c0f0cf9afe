#include "tests/support/host_resource.hpp"

#include <kiln/error.hpp>
#include <kiln/pool_resource.hpp>
#include <kiln/resource_adaptors.hpp>

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <latch>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using kiln::PoolResource;
using kiln::StreamView;
using kiln::test::CountingHostResource;
using kiln::test::fake_stream;
using kiln::test::RecordingStreamOrder;
using kiln::test::UpstreamCall;
using Wait = RecordingStreamOrder::Wait;

const StreamView stream_a = fake_stream(0);
const StreamView stream_b = fake_stream(1);
const StreamView stream_c = fake_stream(2);

std::uintptr_t address(const void* ptr) {
    return reinterpret_cast<std::uintptr_t>(ptr);
}

void* offset(void* ptr, std::size_t bytes) {
    return static_cast<char*>(ptr) + bytes;
}

std::string text_of(const void* ptr) {
    std::ostringstream text;
    text << ptr;
    return text.str();
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

bool is_call(const UpstreamCall& call, UpstreamCall::Kind kind, const void* ptr,
             std::size_t bytes) {
    return call.kind == kind && call.ptr == ptr && call.bytes == bytes;
}

class Pool : public testing::Test {
protected:
    CountingHostResource host;
    RecordingStreamOrder order;
    PoolResource pool{host, order};
};

// CuPy's documented MemoryPool example: a 400-byte array makes used_bytes and total_bytes 512.
TEST_F(Pool, CupyExampleRoundsCachesAndReleases) {
    void* ptr = pool.allocate(400);
    EXPECT_EQ(pool.used_bytes(), 512U);
    EXPECT_EQ(pool.total_bytes(), 512U);
    EXPECT_EQ(pool.n_free_blocks(), 0U);
    ASSERT_EQ(host.calls().size(), 1U);
    EXPECT_TRUE(is_call(host.calls()[0], UpstreamCall::Kind::allocate, ptr, 512));

    pool.deallocate(ptr, 400);
    EXPECT_EQ(pool.used_bytes(), 0U);
    EXPECT_EQ(pool.total_bytes(), 512U);
    EXPECT_EQ(pool.free_bytes(), 512U);
    EXPECT_EQ(pool.n_free_blocks(), 1U);

    EXPECT_EQ(pool.allocate(400), ptr);
    EXPECT_EQ(host.allocations(), 1U);
    pool.deallocate(ptr, 400);

    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
    EXPECT_EQ(pool.n_free_blocks(), 0U);
    ASSERT_EQ(host.calls().size(), 2U);
    EXPECT_TRUE(is_call(host.calls()[1], UpstreamCall::Kind::deallocate, ptr, 512));
    EXPECT_EQ(host.live_bytes(), 0U);
}

// Rounded sizes are ceil(bytes / 512) * 512, and each new chunk is exactly that large.
TEST_F(Pool, RoundsEachRequestUpToTheGranularity) {
    const std::vector<std::pair<std::size_t, std::size_t>> cases = {
        {1, 512}, {511, 512}, {512, 512}, {513, 1024}, {1000, 1024}, {1025, 1536}, {4096, 4096}};
    std::size_t used = 0;
    for (const auto& [bytes, rounded] : cases) {
        (void)pool.allocate(bytes);
        used += rounded;
        EXPECT_EQ(pool.used_bytes(), used) << bytes;
        EXPECT_EQ(host.calls().back().bytes, rounded) << bytes;
    }
    EXPECT_EQ(pool.total_bytes(), used);
}

TEST_F(Pool, ZeroBytesIsNullAndNullIsNotFreed) {
    EXPECT_EQ(pool.allocate(0), nullptr);
    pool.deallocate(nullptr, 0);
    pool.deallocate(nullptr, 512);
    EXPECT_TRUE(host.calls().empty());
    EXPECT_EQ(pool.total_bytes(), 0U);
}

TEST_F(Pool, TakesTheSmallestFreeBlockThatFits) {
    void* big = pool.allocate(2048);
    void* small = pool.allocate(1024);
    void* middle = pool.allocate(1536);
    pool.deallocate(big, 2048);
    pool.deallocate(small, 1024);
    pool.deallocate(middle, 1536);
    ASSERT_EQ(pool.n_free_blocks(), 3U);

    EXPECT_EQ(pool.allocate(1100), middle);
    EXPECT_EQ(pool.allocate(600), small);
    EXPECT_EQ(pool.allocate(2048), big);
    EXPECT_EQ(host.allocations(), 3U);
    EXPECT_EQ(pool.n_free_blocks(), 0U);
    EXPECT_EQ(pool.used_bytes(), 2048U + 1024U + 1536U);
}

TEST_F(Pool, EqualFitsGoToTheLowestAddress) {
    void* first = pool.allocate(1024);
    void* second = pool.allocate(1024);
    void* lower = address(first) < address(second) ? first : second;
    void* higher = lower == first ? second : first;
    // Freed higher first, so the pick cannot come from the order of freeing.
    pool.deallocate(higher, 1024);
    pool.deallocate(lower, 1024);
    EXPECT_EQ(pool.allocate(1024), lower);
    EXPECT_EQ(pool.allocate(1024), higher);
}

// The eager pattern: each call makes an array and frees the one the call before made. The two
// blocks take turns; the pool neither grows nor splits further.
TEST_F(Pool, AlternatingBlocksOfOneSizeAreReused) {
    void* older = pool.allocate(1000, stream_a);
    void* newer = pool.allocate(1000, stream_a);
    pool.deallocate(older, 1000, stream_a);
    const std::size_t free_blocks = pool.n_free_blocks();
    for (int i = 0; i < 10; ++i) {
        void* made = pool.allocate(1000, stream_a);
        EXPECT_EQ(made, older);
        pool.deallocate(newer, 1000, stream_a);
        older = newer;
        newer = made;
        EXPECT_EQ(pool.used_bytes(), 1024U);
        EXPECT_EQ(pool.n_free_blocks(), free_blocks);
    }
    EXPECT_EQ(host.allocations(), 2U);
    EXPECT_TRUE(order.waits().empty());
}

// A freed block held for a request of its own size still serves a smaller one, and merges with
// a neighbour freed after it.
TEST_F(Pool, ALastFreedBlockServesOtherSizesAndMerges) {
    void* chunk = pool.allocate(2048, stream_a);
    pool.deallocate(chunk, 2048, stream_a);
    void* front = pool.allocate(1024, stream_a);
    void* back = pool.allocate(1024, stream_a);
    pool.deallocate(front, 1024, stream_a);
    EXPECT_EQ(pool.allocate(512, stream_a), front);
    pool.deallocate(front, 512, stream_a);
    pool.deallocate(back, 1024, stream_a);
    EXPECT_EQ(pool.n_free_blocks(), 1U);
    EXPECT_EQ(pool.allocate(2048, stream_a), chunk);
    EXPECT_EQ(host.allocations(), 1U);
}

TEST_F(Pool, SplitHandsOutTheFrontAndKeepsTheRest) {
    void* chunk = pool.allocate(4096);
    pool.deallocate(chunk, 4096);

    EXPECT_EQ(pool.allocate(1000), chunk);
    EXPECT_EQ(pool.used_bytes(), 1024U);
    EXPECT_EQ(pool.total_bytes(), 4096U);
    EXPECT_EQ(pool.free_bytes(), 3072U);
    EXPECT_EQ(pool.n_free_blocks(), 1U);

    EXPECT_EQ(pool.allocate(3072), offset(chunk, 1024));
    EXPECT_EQ(pool.used_bytes(), 4096U);
    EXPECT_EQ(pool.n_free_blocks(), 0U);
    EXPECT_EQ(host.allocations(), 1U);

    (void)pool.allocate(1);
    EXPECT_EQ(host.allocations(), 2U);
}

// Three neighbours a, b, c of one chunk; the parameter is the order they are freed in.
class Merge : public Pool, public testing::WithParamInterface<std::array<int, 3>> {};

TEST_P(Merge, FreedNeighboursBecomeOneBlock) {
    void* chunk = pool.allocate(3072);
    pool.deallocate(chunk, 3072);
    const std::array<void*, 3> blocks = {pool.allocate(1024), pool.allocate(1024),
                                         pool.allocate(1024)};
    ASSERT_EQ(blocks[0], chunk);
    ASSERT_EQ(blocks[1], offset(chunk, 1024));
    ASSERT_EQ(blocks[2], offset(chunk, 2048));
    ASSERT_EQ(pool.n_free_blocks(), 0U);

    // Free blocks are separate unless adjacent: a and c alone are two blocks.
    std::vector<bool> freed(3, false);
    for (const int which : GetParam()) {
        pool.deallocate(blocks.at(which), 1024);
        freed.at(which) = true;
        const std::size_t runs =
            (freed[0] ? 1 : 0) + (freed[1] && !freed[0] ? 1 : 0) + (freed[2] && !freed[1] ? 1 : 0);
        EXPECT_EQ(pool.n_free_blocks(), runs);
    }
    EXPECT_EQ(pool.n_free_blocks(), 1U);
    EXPECT_EQ(pool.allocate(3072), chunk);
    EXPECT_EQ(host.allocations(), 1U);
}

INSTANTIATE_TEST_SUITE_P(EveryOrder, Merge,
                         testing::Values(std::array<int, 3>{0, 1, 2}, std::array<int, 3>{2, 1, 0},
                                         std::array<int, 3>{0, 2, 1}, std::array<int, 3>{1, 0, 2},
                                         std::array<int, 3>{1, 2, 0}));

TEST(PoolChunks, AdjacentChunksNeverMerge) {
    CountingHostResource contiguous(8192);
    RecordingStreamOrder order;
    PoolResource pool(contiguous, order);
    void* first = pool.allocate(1024);
    void* second = pool.allocate(1024);
    ASSERT_EQ(second, offset(first, 1024)) << "the chunks must touch for this test to mean much";
    pool.deallocate(first, 1024);
    pool.deallocate(second, 1024);
    EXPECT_EQ(pool.n_free_blocks(), 2U);

    void* third = pool.allocate(2048);
    EXPECT_EQ(contiguous.allocations(), 3U);
    EXPECT_EQ(third, offset(second, 1024));
    pool.deallocate(third, 2048);

    pool.free_all_blocks();
    const auto calls = contiguous.calls();
    ASSERT_EQ(calls.size(), 6U);
    for (std::size_t i = 3; i < 6; ++i) {
        EXPECT_EQ(calls[i].kind, UpstreamCall::Kind::deallocate);
        EXPECT_EQ(calls[i].bytes, calls[i].ptr == third ? 2048U : 1024U);
    }
    EXPECT_EQ(contiguous.live_bytes(), 0U);
}

TEST_F(Pool, BlocksFreedOnDifferentStreamsDoNotMerge) {
    void* chunk = pool.allocate(2048);
    pool.deallocate(chunk, 2048);
    void* front = pool.allocate(1024);
    void* back = pool.allocate(1024);
    pool.deallocate(front, 1024, stream_a);
    pool.deallocate(back, 1024, stream_b);
    EXPECT_EQ(pool.n_free_blocks(), 2U);

    (void)pool.allocate(2048, stream_a);
    EXPECT_EQ(host.allocations(), 2U);
    EXPECT_TRUE(order.waits().empty());
}

TEST_F(Pool, SameStreamReuseNeedsNoWait) {
    void* ptr = pool.allocate(1024, stream_a);
    pool.deallocate(ptr, 1024, stream_a);
    EXPECT_EQ(pool.allocate(1024, stream_a), ptr);
    EXPECT_TRUE(order.waits().empty());
}

TEST_F(Pool, BlockFreedOnAnotherStreamIsTakenAfterAWait) {
    void* ptr = pool.allocate(1024, stream_a);
    pool.deallocate(ptr, 1024, stream_a);
    EXPECT_EQ(pool.allocate(1024, stream_b), ptr);
    EXPECT_EQ(order.waits(), (std::vector<Wait>{{stream_b, stream_a}}));
    EXPECT_EQ(host.allocations(), 1U);
}

// The block goes to the stream it is freed on, whatever stream it was allocated on.
TEST_F(Pool, FreedBlockBelongsToTheStreamItIsFreedOn) {
    void* ptr = pool.allocate(1024, stream_a);
    pool.deallocate(ptr, 1024, stream_b);
    EXPECT_EQ(pool.allocate(1024, stream_b), ptr);
    EXPECT_TRUE(order.waits().empty());
    pool.deallocate(ptr, 1024, stream_b);
    EXPECT_EQ(pool.allocate(1024, stream_a), ptr);
    EXPECT_EQ(order.waits(), (std::vector<Wait>{{stream_a, stream_b}}));
}

// If the wait fails, nothing was handed out: the wait comes before the block changes hands.
TEST_F(Pool, FailedWaitHandsNothingOut) {
    void* ptr = pool.allocate(1024, stream_a);
    pool.deallocate(ptr, 1024, stream_a);
    order.fail_next();
    EXPECT_THROW((void)pool.allocate(1024, stream_b), kiln::BackendError);
    EXPECT_EQ(pool.used_bytes(), 0U);
    EXPECT_EQ(pool.n_free_blocks(), 1U);
    EXPECT_EQ(host.allocations(), 1U);

    EXPECT_EQ(pool.allocate(1024, stream_b), ptr);
    EXPECT_EQ(order.waits(), (std::vector<Wait>{{stream_b, stream_a}}));
}

TEST_F(Pool, OwnStreamIsSearchedBeforeBetterFitsElsewhere) {
    void* own = pool.allocate(2048, stream_a);
    void* other = pool.allocate(1024, stream_b);
    pool.deallocate(own, 2048, stream_a);
    pool.deallocate(other, 1024, stream_b);
    EXPECT_EQ(pool.allocate(1024, stream_a), own);
    EXPECT_TRUE(order.waits().empty());
}

TEST_F(Pool, BestFitAcrossOtherStreamsWaitsOnItsProducer) {
    void* on_a = pool.allocate(2048, stream_a);
    void* on_c = pool.allocate(1024, stream_c);
    pool.deallocate(on_a, 2048, stream_a);
    pool.deallocate(on_c, 1024, stream_c);
    EXPECT_EQ(pool.allocate(1024, stream_b), on_c);
    EXPECT_EQ(order.waits(), (std::vector<Wait>{{stream_b, stream_c}}));
}

// Taking the front of another stream's block leaves the rest on that stream.
TEST_F(Pool, RemainderOfABorrowedBlockStaysWithItsStream) {
    void* chunk = pool.allocate(2048, stream_a);
    pool.deallocate(chunk, 2048, stream_a);
    EXPECT_EQ(pool.allocate(512, stream_b), chunk);
    EXPECT_EQ(pool.allocate(512, stream_a), offset(chunk, 512));
    EXPECT_EQ(order.waits().size(), 1U);
    EXPECT_EQ(pool.allocate(512, stream_b), offset(chunk, 1024));
    EXPECT_EQ(order.waits(), (std::vector<Wait>{{stream_b, stream_a}, {stream_b, stream_a}}));
}

TEST_F(Pool, FreeAllBlocksKeepsChunksInUse) {
    void* chunk = pool.allocate(2048);
    pool.deallocate(chunk, 2048);
    void* front = pool.allocate(512);
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 2048U);
    EXPECT_EQ(host.deallocations(), 0U);
    pool.deallocate(front, 512);
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
    EXPECT_EQ(host.live_bytes(), 0U);
}

TEST_F(Pool, FreeAllBlocksOfOneStream) {
    void* on_a = pool.allocate(1024, stream_a);
    void* on_b = pool.allocate(2048, stream_b);
    pool.deallocate(on_a, 1024, stream_a);
    pool.deallocate(on_b, 2048, stream_b);

    pool.free_all_blocks(stream_a);
    EXPECT_EQ(pool.total_bytes(), 2048U);
    EXPECT_EQ(pool.n_free_blocks(), 1U);
    ASSERT_EQ(host.deallocations(), 1U);
    const UpstreamCall returned = host.calls().back();
    EXPECT_TRUE(is_call(returned, UpstreamCall::Kind::deallocate, on_a, 1024));
    EXPECT_EQ(returned.stream, stream_a);
}

// A chunk whose free blocks belong to two streams goes back on its first block's stream, made
// to wait on the other; freeing one stream's blocks alone does not return it.
TEST_F(Pool, ChunkFreeOnTwoStreamsIsReturnedAfterAWait) {
    void* chunk = pool.allocate(2048);
    pool.deallocate(chunk, 2048);
    void* front = pool.allocate(1024);
    void* back = pool.allocate(1024);
    pool.deallocate(back, 1024, stream_b);
    pool.deallocate(front, 1024, stream_a);

    pool.free_all_blocks(stream_a);
    pool.free_all_blocks(stream_b);
    EXPECT_EQ(pool.total_bytes(), 2048U);
    EXPECT_TRUE(order.waits().empty());

    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
    EXPECT_EQ(pool.n_free_blocks(), 0U);
    EXPECT_EQ(order.waits(), (std::vector<Wait>{{stream_a, stream_b}}));
    const UpstreamCall returned = host.calls().back();
    EXPECT_TRUE(is_call(returned, UpstreamCall::Kind::deallocate, chunk, 2048));
    EXPECT_EQ(returned.stream, stream_a);
}

// Retired streams. Each test destroys its streams as kiln::Stream's destructor does (retire, tell
// the pool, destroy); the order records any wait that names a destroyed stream, and no upstream
// call may name one either. Handles past the shared ones, since the order remembers them.
class PoolRetire : public Pool {
protected:
    const StreamView s1 = fake_stream(8);
    const StreamView s2 = fake_stream(9);
    static constexpr std::size_t mib = std::size_t{1} << 20U;

    // The reproduction: s1 frees 1 MiB, s2 borrows its front 512 KiB and frees it.
    void* borrow_front() {
        void* whole = pool.allocate(mib, s1);
        pool.deallocate(whole, mib, s1);
        void* front = pool.allocate(mib / 2, s2);
        EXPECT_EQ(front, whole);
        pool.deallocate(front, mib / 2, s2);
        EXPECT_EQ(order.waits(), (std::vector<Wait>{{s2, s1}}));
        return whole;
    }

    // Destroys `stream` and remembers how many upstream calls came before.
    void destroy(StreamView stream) {
        order.destroy(stream, pool);
        destroyed.emplace_back(stream, host.calls().size());
    }

    void expect_no_destroyed_stream_named() {
        EXPECT_TRUE(order.violations().empty()) << order.violations().size() << " bad waits";
        const auto calls = host.calls();
        for (const auto& [gone, since] : destroyed) {
            for (std::size_t i = since; i < calls.size(); ++i) {
                EXPECT_NE(calls[i].stream, gone)
                    << "upstream call " << i << " named a destroyed stream";
            }
        }
    }

    std::vector<std::pair<StreamView, std::size_t>> destroyed;
};

// The segfault: s2, the waiting stream, destroyed before free_all_blocks.
TEST_F(PoolRetire, FreeAllBlocksAfterTheBorrowingStreamIsDestroyed) {
    void* chunk = borrow_front();
    destroy(s2);
    EXPECT_EQ(pool.n_free_blocks(), 1U) << "s2's idle front merges into s1's free rest";
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
    EXPECT_EQ(pool.n_free_blocks(), 0U);
    const UpstreamCall returned = host.calls().back();
    EXPECT_TRUE(is_call(returned, UpstreamCall::Kind::deallocate, chunk, mib));
    EXPECT_EQ(returned.stream, s1);
    EXPECT_EQ(order.waits().size(), 1U) << "idle memory needs no wait";
    expect_no_destroyed_stream_named();
    EXPECT_EQ(order.forgotten(), (std::vector<StreamView>{s2}));
}

// The same chunk returned by the out-of-memory retry instead of free_all_blocks.
TEST(PoolRetireOutOfMemory, RetryAfterTheBorrowingStreamIsDestroyed) {
    constexpr std::size_t mib = std::size_t{1} << 20U;
    CountingHostResource host;
    kiln::LimitResource limit(host, 2 * mib);
    RecordingStreamOrder order;
    PoolResource pool(limit, order);
    const StreamView s1 = fake_stream(10);
    const StreamView s2 = fake_stream(11);
    void* whole = pool.allocate(mib, s1);
    pool.deallocate(whole, mib, s1);
    pool.deallocate(pool.allocate(mib / 2, s2), mib / 2, s2);
    order.destroy(s2, pool);

    void* big = pool.allocate(2 * mib, s1);  // fits only once the cached chunk is returned
    EXPECT_NE(big, nullptr);
    EXPECT_EQ(pool.total_bytes(), 2 * mib);
    EXPECT_TRUE(order.violations().empty());
    for (const UpstreamCall& call : host.calls()) {
        EXPECT_NE(call.stream, s2);
    }
    pool.deallocate(big, 2 * mib, s1);
}

// s1, the stream that freed the chunk first, destroyed instead: its rest joins s2's front.
TEST_F(PoolRetire, LenderDestroyedFirst) {
    void* chunk = borrow_front();
    destroy(s1);
    EXPECT_EQ(pool.n_free_blocks(), 1U);
    EXPECT_EQ(pool.allocate(mib, s2), chunk) << "s2 takes the whole chunk again";
    EXPECT_EQ(order.waits().size(), 1U);
    pool.deallocate(chunk, mib, s2);
    pool.free_all_blocks(s2);
    EXPECT_EQ(pool.total_bytes(), 0U);
    EXPECT_EQ(host.calls().back().stream, s2);
    expect_no_destroyed_stream_named();
}

// Both destroyed: the chunk is idle, any stream takes it without a wait, and it goes back on the
// null stream.
TEST_F(PoolRetire, BothDestroyed) {
    void* chunk = borrow_front();
    destroy(s2);
    destroy(s1);
    EXPECT_EQ(pool.n_free_blocks(), 1U);
    EXPECT_EQ(pool.allocate(mib / 4, stream_c), chunk);
    EXPECT_EQ(order.waits().size(), 1U) << "idle memory needs no wait";
    pool.deallocate(chunk, mib / 4, stream_c);
    EXPECT_EQ(pool.n_free_blocks(), 1U) << "the freed front merges with the idle rest";
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
    EXPECT_EQ(host.calls().back().stream, stream_c);

    void* alone = pool.allocate(mib, stream_b);
    pool.deallocate(alone, mib, stream_b);
    destroy(stream_b);  // a shared handle: destroyed last, in this test only
    pool.free_all_blocks();
    EXPECT_EQ(host.calls().back().stream, StreamView{}) << "an idle chunk goes back on null";
    expect_no_destroyed_stream_named();
}

// An array that outlives its stream is freed under the destroyed handle: idle memory, never a
// list of a dead stream.
TEST_F(PoolRetire, FreedUnderADestroyedHandleIsIdle) {
    void* survivor = pool.allocate(4096, s1);
    void* in_use = pool.allocate(8192, s1);
    destroy(s1);
    pool.deallocate(survivor, 4096, s1);
    EXPECT_EQ(pool.allocate(4096, s2), survivor);
    EXPECT_TRUE(order.waits().empty());
    pool.deallocate(survivor, 4096, s2);
    pool.deallocate(in_use, 8192, s1);
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
    expect_no_destroyed_stream_named();
}

// A block still handed out when its stream goes, and the pool destroyed with it in use: the
// destructor returns it on the null stream, not the destroyed one.
TEST(PoolRetireLifetime, DestructorNamesNoDestroyedStream) {
    CountingHostResource host;
    RecordingStreamOrder order;
    const StreamView gone = fake_stream(12);
    {
        PoolResource pool(host, order);
        (void)pool.allocate(4096, gone);
        order.destroy(gone, pool);
    }
    EXPECT_EQ(host.live_bytes(), 0U);
    EXPECT_EQ(host.calls().back().stream, StreamView{});
}

// 8 threads create streams, allocate and free on them and on each other's, and destroy them;
// no wait or upstream call names a stream after its destruction, and nothing leaks.
TEST(PoolRetireStress, ThreadsCreateAndDestroyStreamsWhileAllocating) {
    CountingHostResource host;
    RecordingStreamOrder order;
    PoolResource pool(host, order);
    constexpr int threads = 8;
    constexpr int lifetimes = 200;
    std::vector<std::array<char, 1>> handles(threads * lifetimes);
    std::latch start(threads);
    auto work = [&](int thread) {
        std::mt19937 random(static_cast<std::uint32_t>(thread));
        start.arrive_and_wait();
        for (int life = 0; life < lifetimes; ++life) {
            const StreamView mine(&handles[static_cast<std::size_t>(thread * lifetimes + life)]);
            std::vector<std::pair<void*, std::size_t>> live;
            for (int i = 0; i < 20; ++i) {
                const std::size_t bytes = 512 * (1 + random() % 64);
                live.emplace_back(pool.allocate(bytes, mine), bytes);
            }
            for (const auto& [ptr, bytes] : live) {
                pool.deallocate(ptr, bytes, mine);
            }
            if (life % 10 == 0) {
                pool.free_all_blocks();
            }
            order.destroy(mine, pool);
        }
    };
    std::vector<std::thread> workers;
    workers.reserve(threads);
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back(work, t);
    }
    for (auto& worker : workers) {
        worker.join();
    }
    EXPECT_TRUE(order.violations().empty()) << order.violations().size() << " bad waits";
    EXPECT_EQ(pool.used_bytes(), 0U);
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
    EXPECT_EQ(host.live_bytes(), 0U);
}

TEST(PoolOutOfMemory, ReleasesCachedChunksAndRetries) {
    CountingHostResource host;
    kiln::LimitResource limit(host, 2048);
    RecordingStreamOrder order;
    PoolResource pool(limit, order);
    void* cached = pool.allocate(1024);
    pool.deallocate(cached, 1024);

    void* ptr = pool.allocate(1536);
    EXPECT_NE(ptr, nullptr);
    EXPECT_EQ(pool.total_bytes(), 1536U);
    EXPECT_EQ(pool.used_bytes(), 1536U);
    EXPECT_EQ(limit.used(), 1536U);
    const auto calls = host.calls();
    ASSERT_EQ(calls.size(), 3U);
    EXPECT_TRUE(is_call(calls[1], UpstreamCall::Kind::deallocate, cached, 1024));
    EXPECT_TRUE(is_call(calls[2], UpstreamCall::Kind::allocate, ptr, 1536));
}

// The limit's own figures differ from the pool's: 256 bytes are held outside the pool.
TEST(PoolOutOfMemory, ReportsRoundedRequestHeldBytesAndUpstreamLimit) {
    CountingHostResource host;
    kiln::LimitResource limit(host, 2048);
    RecordingStreamOrder order;
    PoolResource pool(limit, order);
    void* outside = limit.allocate(256);
    (void)pool.allocate(1024);
    void* cached = pool.allocate(512);
    pool.deallocate(cached, 512);
    try {
        (void)pool.allocate(1100);
        ADD_FAILURE() << "1536 more bytes fit under a limit of 2048 with 1024 in use";
    } catch (const kiln::OutOfMemory& e) {
        EXPECT_EQ(e.requested(), 1536U);
        EXPECT_EQ(e.used(), 1024U);
        EXPECT_EQ(e.limit(), 2048U);
        EXPECT_TRUE(contains(e.what(), "1536 bytes")) << e.what();
    }
    // The cached chunk went back upstream on the way.
    EXPECT_TRUE(is_call(host.calls().back(), UpstreamCall::Kind::deallocate, cached, 512));
    EXPECT_EQ(pool.total_bytes(), 1024U);
    EXPECT_EQ(pool.used_bytes(), 1024U);
    limit.deallocate(outside, 256);
}

TEST_F(Pool, RequestTooLargeToRoundIsOutOfMemory) {
    const std::size_t huge = std::numeric_limits<std::size_t>::max();
    try {
        (void)pool.allocate(huge);
        ADD_FAILURE() << "allocated SIZE_MAX bytes";
    } catch (const kiln::OutOfMemory& e) {
        EXPECT_EQ(e.requested(), huge);
    }
    EXPECT_TRUE(host.calls().empty());
}

TEST_F(Pool, ForeignPointerIsRefusedByName) {
    int foreign = 0;
    try {
        pool.deallocate(&foreign, sizeof foreign);
        ADD_FAILURE() << "freed a pointer the pool never handed out";
    } catch (const kiln::Error& e) {
        const std::string what = e.what();
        EXPECT_TRUE(contains(what, "kiln: PoolResource::deallocate: pointer " + text_of(&foreign)))
            << what;
        EXPECT_TRUE(contains(what, "was not allocated by this pool")) << what;
    }
}

TEST_F(Pool, DoubleFreeIsRefused) {
    void* ptr = pool.allocate(1024);
    pool.deallocate(ptr, 1024);
    EXPECT_THROW(pool.deallocate(ptr, 1024), kiln::Error);
    EXPECT_EQ(pool.n_free_blocks(), 1U);
}

TEST_F(Pool, WrongSizeIsRefusedAndChangesNothing) {
    void* ptr = pool.allocate(400);
    try {
        pool.deallocate(ptr, 512);
        ADD_FAILURE() << "freed 400 bytes as 512";
    } catch (const kiln::Error& e) {
        const std::string what = e.what();
        EXPECT_TRUE(contains(what, "pointer " + text_of(ptr))) << what;
        EXPECT_TRUE(contains(what, "allocated with 400 bytes")) << what;
        EXPECT_TRUE(contains(what, "freed with 512 bytes")) << what;
    }
    EXPECT_EQ(pool.used_bytes(), 512U);
    pool.deallocate(ptr, 400);
    EXPECT_EQ(pool.used_bytes(), 0U);
}

TEST(PoolLifetime, DestructorReturnsEveryChunk) {
    CountingHostResource host;
    RecordingStreamOrder order;
    {
        PoolResource pool(host, order);
        (void)pool.allocate(1000);
        void* split = pool.allocate(4096);
        pool.deallocate(split, 4096, stream_a);
        (void)pool.allocate(512, stream_a);
        void* cached = pool.allocate(8192, stream_b);
        pool.deallocate(cached, 8192, stream_b);
        EXPECT_EQ(host.live_bytes(), 1024U + 4096U + 8192U);
    }
    EXPECT_EQ(host.live_bytes(), 0U);
    EXPECT_EQ(host.allocations(), 3U);
    EXPECT_EQ(host.deallocations(), 3U);
}

// Threads allocate and free on four streams, freeing on a random stream. Each allocation is
// stamped at both ends; a stamp found changed means two live allocations overlapped.
TEST(PoolStress, ThreadsOnFourStreamsLeaveNothingBehind) {
    CountingHostResource host;
    RecordingStreamOrder order;
    PoolResource pool(host, order);
    constexpr int threads = 8;
    constexpr int pairs = 10000;
    std::atomic<int> overlaps{0};
    std::latch start(threads);

    auto work = [&](int thread) {
        struct Live {
            void* ptr;
            std::size_t bytes;
            std::uint64_t stamp;
        };
        std::mt19937 random(static_cast<std::uint32_t>(thread));
        std::uniform_int_distribution<std::size_t> size(16, 8192);  // room for two stamps
        std::uniform_int_distribution<std::size_t> stream(0, 3);
        std::vector<Live> live;
        start.arrive_and_wait();  // all threads at once, so that they contend
        auto stamp_at = [](void* ptr, std::size_t at) {
            std::uint64_t stamp = 0;
            std::memcpy(&stamp, offset(ptr, at), sizeof stamp);
            return stamp;
        };
        auto release = [&](std::size_t index) {
            const Live block = live[index];
            if (stamp_at(block.ptr, 0) != block.stamp ||
                stamp_at(block.ptr, block.bytes - sizeof block.stamp) != block.stamp) {
                ++overlaps;
            }
            pool.deallocate(block.ptr, block.bytes, fake_stream(stream(random)));
            live[index] = live.back();
            live.pop_back();
        };
        for (int i = 0; i < pairs; ++i) {
            const std::size_t bytes = size(random);
            const std::uint64_t stamp =
                (static_cast<std::uint64_t>(thread) << 32U) | static_cast<std::uint32_t>(i);
            void* ptr = pool.allocate(bytes, fake_stream(stream(random)));
            std::memcpy(ptr, &stamp, sizeof stamp);
            std::memcpy(offset(ptr, bytes - sizeof stamp), &stamp, sizeof stamp);
            live.push_back({ptr, bytes, stamp});
            if (live.size() > 4 || random() % 2 == 0) {
                release(random() % live.size());
            }
        }
        while (!live.empty()) {
            release(live.size() - 1);
        }
    };
    std::vector<std::thread> workers;
    workers.reserve(threads);
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back(work, t);
    }
    for (auto& worker : workers) {
        worker.join();
    }

    EXPECT_EQ(overlaps.load(), 0);
    EXPECT_EQ(pool.used_bytes(), 0U);
    pool.free_all_blocks();
    EXPECT_EQ(pool.total_bytes(), 0U);
    EXPECT_EQ(pool.n_free_blocks(), 0U);
    EXPECT_EQ(host.live_bytes(), 0U);
    EXPECT_EQ(host.allocations(), host.deallocations());
}

}  // namespace
