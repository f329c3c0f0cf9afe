// The host dialect's reduction launches: one thread per output (lanes 1), blocks of consecutive
// outputs, and a long reduction of few outputs split into chunks so that every thread has work.
#include "reduction.hpp"

#include <algorithm>
#include <limits>

namespace kiln::detail::host_dialect {

ReductionLaunchPlan plan_reduction_launch(const ReductionShape& shape,
                                          const ReductionDevice& device) {
    // A wave of blocks, each of at least a few thousand elements, so that calling a block costs
    // little beside running it.
    constexpr std::int64_t least_elements = 4096;
    const std::int64_t m = std::max<std::int64_t>(1, shape.outputs);
    const std::int64_t n = std::max<std::int64_t>(1, shape.reduced);
    const std::int64_t wanted =
        std::int64_t{std::max(1, device.multiprocessors)} * std::max(1, device.resident_blocks);
    ReductionLaunchPlan plan;
    // Outputs per block: enough for the least work, and few enough for `wanted` blocks. A
    // `columns` kernel reads each row of its block's outputs in one piece: at least `wide` of
    // them, however few the blocks, which a split of the reduction makes up for.
    constexpr std::int64_t wide = 2048;
    const std::int64_t by_work = (least_elements + n - 1) / n;
    const std::int64_t by_count = std::max<std::int64_t>(1, m / wanted);
    const std::int64_t outputs_per_block = std::clamp<std::int64_t>(
        shape.columns ? std::max(by_count, std::min(m, wide)) : std::min(by_work, by_count), 1,
        std::numeric_limits<int>::max());
    plan.block = static_cast<int>(outputs_per_block);
    plan.blocks = (m + outputs_per_block - 1) / outputs_per_block;
    if (plan.blocks < wanted) {
        // A chunk of a `columns` block holds that many elements of each of its outputs.
        const std::int64_t width = shape.columns ? std::min(m, outputs_per_block) : 1;
        const std::int64_t by_length = std::max<std::int64_t>(1, n * width / least_elements);
        plan.split = std::min((wanted + plan.blocks - 1) / plan.blocks, by_length);
    }
    plan.chunk = (n + plan.split - 1) / plan.split;
    plan.split = (n + plan.chunk - 1) / plan.chunk;
    plan.finish_blocks = plan.blocks;
    return plan;
}

}  // namespace kiln::detail::host_dialect
