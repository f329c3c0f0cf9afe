// The reduction launch planner over the benchmark's shapes, on an H100's 132 multiprocessors with
// 8 resident blocks each (one wave: 1056 blocks). The expected values are worked out by hand from
// the rules in dialects/gpu/reduction_launch.cpp; every plan must also cover its shape exactly.
#include "core/kernels/reduction/reduction_source.hpp"
#include "dialects/gpu/reduction.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>

namespace {

using kiln::detail::ReductionDevice;
using kiln::detail::ReductionLaunchPlan;
using kiln::detail::ReductionShape;
using kiln::detail::gpu_dialect::plan_reduction_launch;

constexpr ReductionDevice h100{132, 8};
constexpr std::int64_t block = kiln::detail::reduction_block;

// What any plan must do: lanes and finish lanes are powers of two within a block; the chunks
// cover the reduction with none empty; the grids stay within their limits and cover every
// output, or reach the grid-stride cap of four waves.
void expect_covers(const ReductionShape& shape, const ReductionDevice& device) {
    const ReductionLaunchPlan plan = plan_reduction_launch(shape, device);
    SCOPED_TRACE("m " + std::to_string(shape.outputs) + " n " + std::to_string(shape.reduced));
    EXPECT_TRUE(std::has_single_bit(static_cast<unsigned>(plan.lanes)));
    EXPECT_LE(plan.lanes, block);
    EXPECT_TRUE(std::has_single_bit(static_cast<unsigned>(plan.finish_lanes)));
    EXPECT_LE(plan.finish_lanes, block);
    EXPECT_GE(plan.chunk * plan.split, shape.reduced);
    EXPECT_LT(plan.chunk * (plan.split - 1), std::max<std::int64_t>(shape.reduced, 1));
    EXPECT_LE(plan.split, 65535);
    const std::int64_t cap = std::int64_t{4} * device.multiprocessors * device.resident_blocks;
    EXPECT_TRUE(plan.blocks * (block / plan.lanes) >= shape.outputs || plan.blocks == cap);
    EXPECT_TRUE(plan.finish_blocks * (block / plan.finish_lanes) >= shape.outputs ||
                plan.finish_blocks == cap);
    EXPECT_GE(plan.blocks, 1);
}

// A plan as the rules give it by hand.
struct Expected {
    int lanes;
    bool lanes_fast;
    std::int64_t blocks;
    std::int64_t split;
    std::int64_t chunk;
    int finish_lanes;
    std::int64_t finish_blocks;
};

void expect_plan(const ReductionShape& shape, const Expected& want) {
    const ReductionLaunchPlan plan = plan_reduction_launch(shape, h100);
    EXPECT_EQ(plan.lanes, want.lanes);
    EXPECT_EQ(plan.lanes_fast, want.lanes_fast);
    EXPECT_EQ(plan.blocks, want.blocks);
    EXPECT_EQ(plan.split, want.split);
    EXPECT_EQ(plan.chunk, want.chunk);
    EXPECT_EQ(plan.finish_lanes, want.finish_lanes);
    EXPECT_EQ(plan.finish_blocks, want.finish_blocks);
}

// sum of 1e8 floats to one value: 256 lanes, 4 * 1056 chunks of ceil(1e8 / 4224). One block
// finishes it, so the reduce kernel's last block does.
TEST(ReductionLaunchPlan, OneLongRowSplitsOverFourWaves) {
    expect_plan({1, 100'000'000, true}, {256, true, 1, 4224, 23675, 256, 1});
    EXPECT_TRUE(plan_reduction_launch({1, 100'000'000, true}, h100).last_block_finishes);
}

// A finishing pass of several blocks, or none, stays a launch of its own, or none.
TEST(ReductionLaunchPlan, OnlyAOneBlockFinishIsTheLastBlocks) {
    EXPECT_FALSE(plan_reduction_launch({16, 10'000'000, true}, h100).last_block_finishes);
    EXPECT_FALSE(plan_reduction_launch({10'000'000, 16, true}, h100).last_block_finishes);
    EXPECT_FALSE(plan_reduction_launch({1, 1000, true}, h100).last_block_finishes);
}

// 1e7 rows of 16: 16 / 8 = 2 lanes, 128 rows a block, capped at 132 * 32 blocks; no split.
TEST(ReductionLaunchPlan, ManyShortRowsTakeTwoLanesOfEightElements) {
    expect_plan({10'000'000, 16, true}, {2, true, 4224, 1, 16, 1, 4224});
}

// 16 rows of 1e7: a block per row, split 4224 / 16 = 264 ways.
TEST(ReductionLaunchPlan, FewLongRowsSplitUntilTheDeviceIsFull) {
    expect_plan({16, 10'000'000, true}, {256, true, 16, 264, 37879, 256, 16});
}

// 1e4 x 1e4 over axis 0: ceil(1056 * 256 / 1e4) = 28 threads an output, capped at 4 lanes; 157
// blocks of 64 outputs, split 1056 / 157 = 6 ways; the finish takes 8 lanes, 32 outputs a block.
TEST(ReductionLaunchPlan, ColumnsTakeUpToFourLanesAndOneWave) {
    expect_plan({10'000, 10'000, false}, {4, false, 157, 6, 1667, 8, 313});
}

// 1e7 x 16 over axis 0: 16 outputs of 16 lanes in one block, split over one wave.
TEST(ReductionLaunchPlan, FewColumnsShareOneBlock) {
    expect_plan({16, 10'000'000, false}, {16, false, 1, 1056, 9470, 256, 16});
}

TEST(ReductionLaunchPlan, EveryPlanCoversItsShape) {
    for (const ReductionDevice device : {h100, ReductionDevice{1, 1}, ReductionDevice{110, 2}}) {
        for (const std::int64_t m : {1, 2, 3, 16, 255, 256, 257, 10'000, 10'000'000}) {
            for (const std::int64_t n : {0, 1, 7, 16, 32, 33, 1000, 10'000'000}) {
                for (const bool contiguous : {true, false}) {
                    expect_covers({m, n, contiguous}, device);
                }
            }
        }
    }
}

}  // namespace
