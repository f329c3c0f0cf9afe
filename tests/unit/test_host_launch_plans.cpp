// The host backend's launch shapes, pure functions of a call's size and the thread count: every
// element or output is covered once, by blocks big enough to be worth a call and numerous enough
// to keep every thread busy. Expected values are worked out by hand from the rules in
// dialects/host/dialect.cpp (the index grid) and reduction_launch.cpp.
#include "dialects/host/dialect.hpp"
#include "dialects/host/reduction.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace {

using kiln::detail::ReductionShape;

kiln::detail::IndexGrid host_elementwise_launch(std::int64_t size, int threads) {
    return kiln::detail::host_dialect::dialect().index_grid(size, threads);
}

kiln::detail::ReductionLaunchPlan plan_host_reduction_launch(const ReductionShape& shape,
                                                             int threads) {
    return kiln::detail::host_dialect::plan_reduction_launch(
        shape, {threads, kiln::detail::host_dialect::resident_blocks});
}

TEST(HostElementwiseLaunch, BlocksCoverEveryElementOnce) {
    for (const std::int64_t size : {1LL, 4095LL, 4096LL, 4097LL, 100'000LL, 123'456'789LL}) {
        for (const int threads : {1, 2, 16}) {
            SCOPED_TRACE("size " + std::to_string(size) + " threads " + std::to_string(threads));
            const auto launch = host_elementwise_launch(size, threads);
            const std::int64_t per_block = launch.block;
            EXPECT_GE(per_block, 4096);
            EXPECT_GE(std::int64_t{launch.grid} * per_block, size);
            EXPECT_LT(std::int64_t{launch.grid - 1} * per_block, size) << "an empty block";
            EXPECT_LE(std::int64_t{launch.grid}, std::max<std::int64_t>(1, 8LL * threads));
        }
    }
    // 1e6 elements on two threads: sixteen blocks of 62500.
    const auto launch = host_elementwise_launch(1'000'000, 2);
    EXPECT_EQ(launch.block, 62'500U);
    EXPECT_EQ(launch.grid, 16U);
}

// What any host reduction plan must do: its blocks hold every output, its chunks cover each
// reduction with none empty, and the finishing pass has the reduce pass's blocks.
void expect_covers(const ReductionShape& shape, int threads) {
    const auto plan = plan_host_reduction_launch(shape, threads);
    SCOPED_TRACE("m " + std::to_string(shape.outputs) + " n " + std::to_string(shape.reduced) +
                 " threads " + std::to_string(threads));
    EXPECT_EQ(plan.lanes, 1);
    EXPECT_GE(plan.block, 1);
    EXPECT_GE(plan.blocks * plan.block, shape.outputs);
    EXPECT_LT((plan.blocks - 1) * plan.block, shape.outputs) << "an empty block";
    EXPECT_GE(plan.chunk * plan.split, shape.reduced);
    EXPECT_LT(plan.chunk * (plan.split - 1), std::max<std::int64_t>(shape.reduced, 1));
    EXPECT_EQ(plan.finish_blocks, plan.blocks);
}

TEST(HostReductionPlan, CoversEveryShape) {
    for (const std::int64_t m : {1LL, 3LL, 16LL, 1000LL, 10'000'000LL}) {
        for (const std::int64_t n : {0LL, 1LL, 10LL, 5000LL, 100'000'000LL}) {
            for (const int threads : {1, 2, 64}) {
                expect_covers({m, n, true}, threads);
                expect_covers({m, n, false, true}, threads);
            }
        }
    }
}

TEST(HostReductionPlan, ColumnBlocksAreWideAndSplitTheRows) {
    // 16 columns of 1e7 rows on two threads: one block of all 16, the rows in sixteen chunks.
    const auto narrow = plan_host_reduction_launch({16, 10'000'000, false, true}, 2);
    EXPECT_EQ(narrow.block, 16);
    EXPECT_EQ(narrow.blocks, 1);
    EXPECT_EQ(narrow.split, 16);
    EXPECT_EQ(narrow.chunk, 625'000);
    // 8192 columns of 8192 rows: blocks of 2048 columns (not 512, which 16 blocks would give),
    // four chunks each.
    const auto square = plan_host_reduction_launch({8192, 8192, false, true}, 2);
    EXPECT_EQ(square.block, 2048);
    EXPECT_EQ(square.blocks, 4);
    EXPECT_EQ(square.split, 4);
    // 1e7 columns of 16 rows: as many blocks as wanted, no split.
    const auto wide = plan_host_reduction_launch({10'000'000, 16, false, true}, 2);
    EXPECT_EQ(wide.block, 625'000);
    EXPECT_EQ(wide.blocks, 16);
    EXPECT_EQ(wide.split, 1);
    // A chunk is never below 4096 elements: 3 columns of 5000 rows take three chunks.
    const auto small = plan_host_reduction_launch({3, 5000, false, true}, 2);
    EXPECT_EQ(small.blocks, 1);
    EXPECT_EQ(small.split, 3);
}

TEST(HostReductionPlan, SplitsALongReductionOfFewOutputs) {
    // One output of 1e6 on two threads: sixteen chunks of 62500, finished by one block.
    const auto one = plan_host_reduction_launch({1, 1'000'000, true}, 2);
    EXPECT_EQ(one.blocks, 1);
    EXPECT_EQ(one.split, 16);
    EXPECT_EQ(one.chunk, 62'500);
    // A short reduction is never split below 4096 elements a chunk.
    const auto short_rows = plan_host_reduction_launch({2, 10'000, true}, 2);
    EXPECT_EQ(short_rows.split, 2);
    EXPECT_EQ(short_rows.chunk, 5000);
}

TEST(HostReductionPlan, GroupsShortReductionsIntoBlocks) {
    // 1e6 rows of 10 on two threads: outputs are grouped 410 a block, enough for 4096 elements,
    // and no chunking.
    const auto plan = plan_host_reduction_launch({1'000'000, 10, true}, 2);
    EXPECT_EQ(plan.block, 410);
    EXPECT_EQ(plan.blocks, 2440);
    EXPECT_EQ(plan.split, 1);
    // 1000 rows of 10000: one output a block, and enough blocks without chunks.
    const auto rows = plan_host_reduction_launch({1000, 10'000, false}, 2);
    EXPECT_EQ(rows.block, 1);
    EXPECT_EQ(rows.blocks, 1000);
    EXPECT_EQ(rows.split, 1);
}

}  // namespace
