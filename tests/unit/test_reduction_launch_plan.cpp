// The reduction launch planner over the benchmark's shapes, on an H100's 132 multiprocessors with
// 8 resident blocks each (one wave: 1056 blocks). The expected values are worked out by hand from
// the rules in reduction_launch_plan.cpp; every plan must also cover its shape exactly.
#include "core/kernels/reduction_launch_plan.hpp"
#include "core/kernels/reduction_source.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>

namespace {

using kiln::detail::plan_reduction_launch;
using kiln::detail::ReductionDevice;
using kiln::detail::ReductionLaunchPlan;
using kiln::detail::ReductionShape;

constexpr ReductionDevice h100{132, 8};
constexpr std::int64_t block = kiln::detail::reduction_block;

// What any plan must do: lanes and finish lanes are powers of two within a block; the chunks
// cover the reduction with none empty; the grids stay within their limits and cover every
// output, or reach the grid-stride cap of 32 blocks per multiprocessor.
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
    const std::int64_t cap = std::int64_t{device.multiprocessors} * 32;
    EXPECT_TRUE(plan.blocks * (block / plan.lanes) >= shape.outputs || plan.blocks == cap);
    EXPECT_TRUE(plan.finish_blocks * (block / plan.finish_lanes) >= shape.outputs ||
                plan.finish_blocks == cap);
    EXPECT_GE(plan.blocks, 1);
}

TEST(ReductionLaunchPlan, OneLongRowSplitsOverFourWaves) {
    // sum of 1e8 floats to one value: 256 lanes, 4 * 1056 chunks of ceil(1e8 / 4224).
    const auto plan = plan_reduction_launch({1, 100'000'000, true}, h100);
    EXPECT_EQ(plan.lanes, 256);
    EXPECT_TRUE(plan.lanes_fast);
    EXPECT_EQ(plan.blocks, 1);
    EXPECT_EQ(plan.split, 4224);
    EXPECT_EQ(plan.chunk, 23675);
    EXPECT_EQ(plan.finish_lanes, 256);
    EXPECT_EQ(plan.finish_blocks, 1);
}

TEST(ReductionLaunchPlan, ManyShortRowsTakeTwoLanesOfEightElements) {
    // 1e7 rows of 16: 16 / 8 = 2 lanes, 128 rows a block, capped at 132 * 32 blocks; no split.
    const auto plan = plan_reduction_launch({10'000'000, 16, true}, h100);
    EXPECT_EQ(plan.lanes, 2);
    EXPECT_TRUE(plan.lanes_fast);
    EXPECT_EQ(plan.blocks, 4224);
    EXPECT_EQ(plan.split, 1);
    EXPECT_EQ(plan.chunk, 16);
}

TEST(ReductionLaunchPlan, FewLongRowsSplitUntilTheDeviceIsFull) {
    // 16 rows of 1e7: a block per row, split 4224 / 16 = 264 ways.
    const auto plan = plan_reduction_launch({16, 10'000'000, true}, h100);
    EXPECT_EQ(plan.lanes, 256);
    EXPECT_EQ(plan.blocks, 16);
    EXPECT_EQ(plan.split, 264);
    EXPECT_EQ(plan.chunk, 37879);
    EXPECT_EQ(plan.finish_lanes, 256);
    EXPECT_EQ(plan.finish_blocks, 16);
}

TEST(ReductionLaunchPlan, ColumnsTakeUpToFourLanesAndOneWave) {
    // 1e4 x 1e4 over axis 0: ceil(1056 * 256 / 1e4) = 28 threads an output, capped at 4 lanes;
    // 157 blocks of 64 outputs, split 1056 / 157 = 6 ways.
    const auto plan = plan_reduction_launch({10'000, 10'000, false}, h100);
    EXPECT_EQ(plan.lanes, 4);
    EXPECT_FALSE(plan.lanes_fast);
    EXPECT_EQ(plan.blocks, 157);
    EXPECT_EQ(plan.split, 6);
    EXPECT_EQ(plan.chunk, 1667);
    EXPECT_EQ(plan.finish_lanes, 8);
    EXPECT_EQ(plan.finish_blocks, 313);
}

TEST(ReductionLaunchPlan, FewColumnsShareOneBlock) {
    // 1e7 x 16 over axis 0: 16 outputs of 16 lanes in one block, split over one wave.
    const auto plan = plan_reduction_launch({16, 10'000'000, false}, h100);
    EXPECT_EQ(plan.lanes, 16);
    EXPECT_FALSE(plan.lanes_fast);
    EXPECT_EQ(plan.blocks, 1);
    EXPECT_EQ(plan.split, 1056);
    EXPECT_EQ(plan.chunk, 9470);
    EXPECT_EQ(plan.finish_lanes, 256);
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
