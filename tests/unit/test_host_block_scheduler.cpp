// The host backend's block scheduler without compiling a kernel: plain C++ thread functions run as
// a block's fibers, checked against closed forms: a barrier orders every thread's writes before
// any read and counts its predicate; a block some threads leave early is an Error, a thread's
// exception reaches the caller, and either way the OS thread's fibers run the next block.
#include "backends/host/block_scheduler.hpp"

#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using kiln::detail::host::block_runtime;

// A tree sum of the thread indices in "shared memory", then every thread's barrier count of
// the threads whose index is a multiple of three.
struct TreeSum {
    std::vector<unsigned> tile;
    std::vector<unsigned> counts;
    unsigned sum = 0;
};

void tree_sum(void* context, unsigned t) {
    auto& block = *static_cast<TreeSum*>(context);
    const auto n = static_cast<unsigned>(block.tile.size());
    block.tile[t] = t;
    (void)block_runtime().barrier(0);
    for (unsigned half = n / 2; half > 0; half /= 2) {
        if (t < half) {
            block.tile[t] += block.tile[t + half];
        }
        (void)block_runtime().barrier(0);
    }
    if (t == 0) {
        block.sum = block.tile[0];
    }
    block.counts[t] = block_runtime().barrier(t % 3 == 0 ? 7 : 0);
}

// Runs a tree sum over a block of 8 x 4 x 4 threads and checks it.
void expect_tree_sum() {
    constexpr unsigned n = 128;
    const std::array<unsigned, 3> index{1, 2, 0};
    const std::array<unsigned, 3> dim{8, 4, 4};
    TreeSum block{std::vector<unsigned>(n), std::vector<unsigned>(n), 0};
    block_runtime().run_block(&tree_sum, &block, index.data(), dim.data());
    EXPECT_EQ(block.sum, n * (n - 1) / 2);
    EXPECT_EQ(block.counts, std::vector<unsigned>(n, (n + 2) / 3));
}

// Threads 0-15 wait at a barrier the others return without reaching.
void half_barrier(void* /*context*/, unsigned t) {
    if (t < 16) {
        (void)block_runtime().barrier(0);
    }
}

// Thread 5 throws once every thread has passed one barrier.
void throws_after_barrier(void* /*context*/, unsigned t) {
    (void)block_runtime().barrier(0);
    if (t == 5) {
        throw std::runtime_error("thread 5 gives up");
    }
    (void)block_runtime().barrier(0);
}

TEST(HostBlockScheduler, BarrierOrdersWritesAndCountsItsPredicate) {
    expect_tree_sum();
    expect_tree_sum();  // the OS thread's fibers and stacks, reused
}

TEST(HostBlockScheduler, ABarrierSomeThreadsNeverReachIsAnErrorAndTheNextBlockRuns) {
    const std::array<unsigned, 3> index{3, 0, 1};
    const std::array<unsigned, 3> dim{64, 1, 1};
    for (int attempt = 0; attempt < 2; ++attempt) {
        try {
            block_runtime().run_block(&half_barrier, nullptr, index.data(), dim.data());
            ADD_FAILURE() << "run_block returned";
        } catch (const kiln::Error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("block (3, 0, 1)"), std::string::npos) << what;
            EXPECT_NE(what.find("threads (0, 0, 0) and 15 more wait at __syncthreads"),
                      std::string::npos)
                << what;
            EXPECT_NE(what.find("(16, 0, 0) and 47 more returned without reaching it"),
                      std::string::npos)
                << what;
        }
        expect_tree_sum();
    }
}

TEST(HostBlockScheduler, AThreadsExceptionReachesTheCallerAndTheNextBlockRuns) {
    const std::array<unsigned, 3> index{0, 0, 0};
    const std::array<unsigned, 3> dim{32, 2, 1};
    EXPECT_THROW(
        {
            try {
                block_runtime().run_block(&throws_after_barrier, nullptr, index.data(), dim.data());
            } catch (const std::runtime_error& e) {
                EXPECT_STREQ(e.what(), "thread 5 gives up");
                throw;
            }
        },
        std::runtime_error);
    expect_tree_sum();
}

}  // namespace
