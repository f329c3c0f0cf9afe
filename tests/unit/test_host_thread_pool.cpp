// The host backend's thread pool: every index of a run is visited once, across threads, whatever
// the count; an exception comes back to the caller after every range has run; several callers
// share the pool at once.
#include "backends/host/thread_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

using kiln::detail::host::ThreadPool;

// How many times run() visits each index of [0, count).
std::vector<int> visits(ThreadPool& pool, std::int64_t count) {
    std::vector<std::atomic<int>> seen(static_cast<std::size_t>(count));
    pool.run(count, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) {
            seen[static_cast<std::size_t>(i)].fetch_add(1);
        }
    });
    std::vector<int> out;
    out.reserve(seen.size());
    for (auto& v : seen) {
        out.push_back(v.load());
    }
    return out;
}

TEST(HostThreadPool, EveryIndexOnceForAnyCount) {
    ThreadPool pool(3);
    EXPECT_EQ(pool.threads(), 3);
    for (const std::int64_t count : {0, 1, 2, 11, 12, 13, 1000}) {
        EXPECT_EQ(visits(pool, count), std::vector<int>(static_cast<std::size_t>(count), 1))
            << count;
    }
    ThreadPool single(0);
    EXPECT_EQ(single.threads(), 1) << "at least the calling thread";
    EXPECT_EQ(visits(single, 5), std::vector<int>(5, 1));
}

TEST(HostThreadPool, RangesRunOnSeveralThreads) {
    ThreadPool pool(4);
    std::mutex mutex;
    std::set<std::thread::id> ids;
    std::atomic<int> waiting{0};
    pool.run(4, [&](std::int64_t, std::int64_t) {
        {
            const std::scoped_lock lock(mutex);
            ids.insert(std::this_thread::get_id());
        }
        // Hold each range until another has started (10 s at most): one thread alone would
        // take all of them in turn.
        waiting.fetch_add(1);
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (waiting.load() < 2 && std::chrono::steady_clock::now() < give_up) {
            std::this_thread::yield();
        }
    });
    EXPECT_GE(ids.size(), 2U);
}

TEST(HostThreadPool, TheFirstExceptionComesBackAfterEveryRange) {
    ThreadPool pool(2);
    std::atomic<std::int64_t> covered{0};
    try {
        pool.run(8, [&](std::int64_t begin, std::int64_t end) {
            covered.fetch_add(end - begin);
            if (begin == 0) {
                throw std::runtime_error("range at 0 failed");
            }
        });
        ADD_FAILURE() << "expected the range's exception";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "range at 0 failed");
    }
    EXPECT_EQ(covered.load(), 8);
    EXPECT_EQ(visits(pool, 100), std::vector<int>(100, 1)) << "the pool works on after it";
}

TEST(HostThreadPool, CallersOnSeveralThreadsShareThePool) {
    ThreadPool pool(2);
    std::vector<std::thread> callers;
    callers.reserve(4);
    std::atomic<int> wrong{0};
    for (int c = 0; c < 4; ++c) {
        callers.emplace_back([&, c] {
            for (int round = 0; round < 50; ++round) {
                const std::int64_t count = 10 + c + round;
                if (visits(pool, count) != std::vector<int>(static_cast<std::size_t>(count), 1)) {
                    wrong.fetch_add(1);
                }
            }
        });
    }
    for (auto& caller : callers) {
        caller.join();
    }
    EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
