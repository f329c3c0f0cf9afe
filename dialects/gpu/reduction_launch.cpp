// The GPU dialect's reduction launches: threads per output and their order, the reduction split
// into chunks over blocks so that no long reduction runs on one block, and the finishing pass.
#include "reduction.hpp"

#include <algorithm>
#include <limits>

namespace kiln::detail::gpu_dialect {

namespace {

std::int64_t next_power_of_two(std::int64_t n) {
    std::int64_t p = 1;
    while (p < n) {
        p *= 2;
    }
    return p;
}

// Threads per output and their order.
void choose_lanes(const ReductionShape& shape, std::int64_t one_wave, ReductionLaunchPlan& plan) {
    constexpr std::int64_t block = reduction_block;
    // Short contiguous rows: a few adjacent lanes per row with eight elements each, so that a
    // warp reads whole rows and a thread has eight loads in flight (measured on 1e7 rows of 16
    // floats: 1, 2, 4, 8 or 16 elements a lane gave 14, 32, 72, 89 and 49% of copy bandwidth).
    constexpr std::int64_t short_row = 32;
    constexpr std::int64_t elements_per_lane = 8;
    // Columns: up to four lanes per output while they are too few to fill the device, so that
    // fewer chunks need a finishing pass; a block still reads 64 neighbouring outputs (256 bytes
    // of floats) of each row, which measured better than narrower blocks with fewer chunks.
    constexpr std::int64_t max_column_lanes = 4;
    const std::int64_t m = shape.outputs;
    const std::int64_t n = shape.reduced;
    if ((shape.contiguous && n > short_row) || m == 1) {
        plan.lanes = static_cast<int>(std::min(block, next_power_of_two(n)));
    } else if (shape.contiguous) {
        plan.lanes =
            static_cast<int>(std::max<std::int64_t>(1, next_power_of_two(n) / elements_per_lane));
    } else if (m < block) {
        // All outputs in one block: the lanes of each are its other threads.
        plan.lanes = static_cast<int>(block / next_power_of_two(m));
        plan.lanes_fast = false;
    } else {
        // Neighbouring threads read neighbouring outputs.
        const std::int64_t threads_per_output = (one_wave * block + m - 1) / m;
        plan.lanes =
            static_cast<int>(std::min(max_column_lanes, next_power_of_two(threads_per_output)));
        plan.lanes_fast = false;
    }
}

}  // namespace

ReductionLaunchPlan plan_reduction_launch(const ReductionShape& shape,
                                          const ReductionDevice& device) {
    constexpr std::int64_t block = reduction_block;
    const std::int64_t one_wave =
        std::int64_t{std::max(1, device.multiprocessors)} * std::max(1, device.resident_blocks);
    ReductionLaunchPlan plan;
    plan.block = static_cast<int>(block);
    choose_lanes(shape, one_wave, plan);
    // The loops are grid-strided: four waves cover any number of outputs.
    const std::int64_t resident = 4 * one_wave;
    const std::int64_t groups = block / plan.lanes;
    plan.blocks = std::min((shape.outputs + groups - 1) / groups, resident);
    // Blocks to split the reduction over when the outputs alone do not fill the device. Rows:
    // four waves, so that multiprocessors that finish early take more (one wave measured 84% of
    // copy bandwidth on 16 rows of 1e7, four 89%). Columns: one wave, as every chunk adds a
    // partial per output to the finishing pass.
    const std::int64_t wanted = plan.lanes_fast ? 4 * one_wave : one_wave;
    constexpr std::int64_t min_per_lane = 16;
    constexpr std::int64_t max_grid_y = 65535;
    if (plan.blocks < wanted) {
        const std::int64_t by_work =
            std::max<std::int64_t>(1, shape.reduced / (plan.lanes * min_per_lane));
        plan.split = std::max<std::int64_t>(
            1, std::min({wanted / std::max<std::int64_t>(1, plan.blocks), by_work, max_grid_y}));
    }
    plan.chunk = std::max<std::int64_t>(1, (shape.reduced + plan.split - 1) / plan.split);
    plan.split = std::max<std::int64_t>(1, (shape.reduced + plan.chunk - 1) / plan.chunk);
    // The finishing pass reduces each output's `split` partials, with lanes as for a row.
    plan.finish_lanes = static_cast<int>(std::min(block, next_power_of_two(plan.split)));
    const std::int64_t finish_groups = block / plan.finish_lanes;
    plan.finish_blocks = std::min((shape.outputs + finish_groups - 1) / finish_groups, resident);
    // One block's finishing pass: the reduce kernel's last block can do it.
    plan.last_block_finishes = plan.split > 1 && plan.finish_blocks == 1;
    return plan;
}

}  // namespace kiln::detail::gpu_dialect
