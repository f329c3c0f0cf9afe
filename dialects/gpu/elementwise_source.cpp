// The GPU dialect's ElementwiseKernel: K elements a thread read ahead, and the tiled mode of 2-d
// strided variants.
#include "elementwise.hpp"

#include "dialect.hpp"

#include <algorithm>

namespace kiln::detail::gpu_dialect {

namespace {

// A 2-d strided variant with a const input: a transposed read can go through shared memory.
bool has_tiled_mode(const ElementwiseVariant& variant, const std::vector<LoopOperand>& operands) {
    return !variant.contiguous && variant.ndim == 2 &&
           std::any_of(operands.begin(), operands.end(),
                       [](const LoopOperand& op) { return op.loaded; });
}

std::string kernel(const ElementwiseDefinition& definition, const ElementwiseVariant& variant,
                   ElementwiseKernelParts parts) {
    parts.shape.elements_per_thread = elements_per_thread(definition, variant);
    parts.shape.tiled = has_tiled_mode(variant, parts.operands);
    // Strided variants carry three modes' index arithmetic: held to the registers that keep a
    // wave resident, they keep enough loads in flight (measured: row mode 86% -> 89% of copy
    // bandwidth, tiled 51% -> 58%). Contiguous ones gained nothing measurable, so heavy
    // operations there keep every register they need.
    const std::string bounds = variant.contiguous ? "" : wave_launch_bounds();
    return dialect().kernel_opening(parts.entry_name, parts.params, bounds) + parts.prologue +
           elementwise_loops(parts.operands, parts.shape) + parts.epilogue;
}

}  // namespace

int elements_per_thread(const ElementwiseDefinition& definition,
                        const ElementwiseVariant& variant) {
    std::size_t widest = 0;
    for (const auto& op : loop_operands(definition, variant)) {
        widest = op.loaded ? std::max(widest, op.itemsize) : widest;
    }
    if (widest == 0) {
        return 1;
    }
    // 32 bytes of each input in flight per thread, and at least two items, so that 16-byte items
    // (complex128) also keep two loads in flight: with one, a thread's next load waits for its
    // store, and complex128 |z|^2 reached 90.7% of copy on an H100 where float64 kernels with two
    // reached 95%. Four float64 items rather than two: 1% faster on an H100 (kiln::add of 1e8,
    // 0.820 - 0.826 ms against 0.829 - 0.836; clipped_relu 0.557 - 0.559 against 0.563 - 0.565).
    constexpr std::size_t bytes_per_load = 32;
    constexpr std::size_t least = 2;
    constexpr std::size_t most = 4;
    return static_cast<int>(std::clamp(bytes_per_load / widest, least, most));
}

std::size_t tiled_shared_bytes(const ElementwiseDefinition& definition,
                               const ElementwiseVariant& variant) {
    const auto operands = loop_operands(definition, variant);
    if (!has_tiled_mode(variant, operands)) {
        return 0;
    }
    std::size_t bytes = 0;
    for (const auto& op : operands) {
        bytes += op.loaded ? tile_bytes(op.itemsize) : 0;
    }
    return bytes;
}

const ElementwiseDialect elementwise_part{&kernel, &elementwise_launch};

}  // namespace kiln::detail::gpu_dialect
