#include "elementwise_launch.hpp"

#include "elementwise_loops.hpp"

#include <algorithm>
#include <cstdlib>

#include <unistd.h>

namespace kiln::detail {

namespace {

constexpr std::int64_t block = elementwise_block;
constexpr std::int64_t tile = 32;
// The dynamic shared memory every device grants without opting in.
constexpr std::size_t shared_limit = std::size_t{48} * 1024;

// A const input read across its fast axis: its outer stride is the smaller one, and neither is a
// broadcast (stride 0).
bool has_transposed_input(const ElementwiseDefinition& definition,
                          const ElementwiseVariant& variant, const CallValues& values) {
    for (std::size_t p = 0; p < definition.in.size(); ++p) {
        const Strides& s = values.operands[p].strides;
        if (variant.operands[p].kind == OperandVariant::Kind::array &&
            !definition.in[p].non_const && s.size() == 2 && s[0] != 0 && s[1] != 0 &&
            std::abs(s[0]) < std::abs(s[1])) {
            return true;
        }
    }
    return false;
}

// Some array operand steps less from one row to the next than along a row, and neither step is
// a broadcast: the host's row-by-row loop would read or write it a column at a time.
bool has_transposed_operand(const ElementwiseVariant& variant, const CallValues& values) {
    for (std::size_t p = 0; p < variant.operands.size(); ++p) {
        const Strides& s = values.operands[p].strides;
        const std::size_t n = s.size();
        if (variant.operands[p].kind == OperandVariant::Kind::array && n >= 2 && s[n - 2] != 0 &&
            s[n - 1] != 0 && std::abs(s[n - 2]) < std::abs(s[n - 1])) {
            return true;
        }
    }
    return false;
}

// The CPU's level-1 data cache: glibc's figure where it knows it, else 32 KiB, the smallest of
// current x86-64 and Arm server cores.
std::int64_t l1_data_cache_bytes() {
    static const std::int64_t bytes = [] {
        long reported = 0;
#ifdef _SC_LEVEL1_DCACHE_SIZE
        reported = sysconf(_SC_LEVEL1_DCACHE_SIZE);
#endif
        return reported > 0 ? std::int64_t{reported} : std::int64_t{32} * 1024;
    }();
    return bytes;
}

// The widest host tile, in columns (a power of two, 4 to 32), whose rows of every array operand
// fill at most two thirds of the level-1 data cache. y = x + x of a transposed 8192² float32 on
// one thread, in probes: an AMD EPYC (32 KiB) took 60 ms in tiles of 128x16 (16 KiB), 149 ms in
// 128x32 (32 KiB); an Intel Xeon (48 KiB), 119 ms in 128x32, 161 in 128x16. float64 on the
// EPYC: 78 ms in 128x8, 111 in 128x16.
std::int64_t host_tile_columns(const ElementwiseVariant& variant) {
    std::int64_t row_bytes = 0;
    for (const OperandVariant& op : variant.operands) {
        row_bytes += op.kind == OperandVariant::Kind::array
                         ? static_cast<std::int64_t>(itemsize(op.dtype))
                         : 0;
    }
    const std::int64_t budget = l1_data_cache_bytes() * 2 / 3;
    std::int64_t columns = 32;
    while (columns > 4 && host_tile_rows * columns * row_bytes > budget) {
        columns /= 2;
    }
    return columns;
}

}  // namespace

ElementwiseLaunch elementwise_launch(const ElementwiseDefinition& definition,
                                     const ElementwiseVariant& variant, const CallValues& values,
                                     std::int64_t multiprocessors) {
    ElementwiseLaunch launch;
    launch.block = static_cast<unsigned>(block);
    const Shape& shape = values.shape;
    std::int64_t blocks = 0;
    const std::size_t tile_shared = tiled_shared_bytes(definition, variant);
    if (variant.contiguous) {
        const std::int64_t per_block = block * elements_per_thread(definition, variant);
        blocks = (values.size + per_block - 1) / per_block;
    } else if (tile_shared > 0 && tile_shared <= shared_limit && shape[0] >= tile &&
               shape[1] >= tile && has_transposed_input(definition, variant, values)) {
        launch.tile_columns = (shape[1] + tile - 1) / tile;
        launch.shared_bytes = tile_shared;
        blocks = launch.tile_columns * ((shape[0] + tile - 1) / tile);
    } else if (!shape.empty() && shape.back() >= block &&
               values.size / shape.back() >= multiprocessors * 4) {
        // Rows long enough to keep a block busy, and enough of them to fill the device, are taken
        // a block each: no division per element.
        launch.row_length = shape.back();
        blocks = values.size / shape.back();
    } else {
        blocks = (values.size + block - 1) / block;
    }
    // A block per tile of work, so the hardware balances blocks as they finish; the loops still
    // stride by the grid, for sizes past the grid limit. On an H100 (1e8 elements, median of 100
    // runs), against a grid capped at 64 blocks per multiprocessor: float64 subtract 0.797 ms
    // against 0.822, float32 add 0.403 against 0.423, float64 d * d 0.541 against 0.560. Caps of
    // 8 and 16 were slower still.
    constexpr std::int64_t grid_limit = 0x7fffffff;
    launch.grid = static_cast<unsigned>(std::min(blocks, grid_limit));
    return launch;
}

ElementwiseLaunch host_elementwise_launch(std::int64_t size, std::int64_t threads) {
    // Eight blocks a thread, so that threads that finish early take more; none so small that
    // calling the block's loop costs more than running it.
    constexpr std::int64_t blocks_per_thread = 8;
    constexpr std::int64_t least = 4096;
    constexpr std::int64_t most = 0x7fffffff;
    const std::int64_t wanted = std::max<std::int64_t>(1, threads) * blocks_per_thread;
    const std::int64_t per_block = std::clamp((size + wanted - 1) / wanted, least, most);
    ElementwiseLaunch launch;
    launch.block = static_cast<unsigned>(per_block);
    launch.grid = static_cast<unsigned>((size + per_block - 1) / per_block);
    return launch;
}

ElementwiseLaunch host_elementwise_launch(const ElementwiseVariant& variant,
                                          const CallValues& values, std::int64_t threads) {
    ElementwiseLaunch launch = host_elementwise_launch(values.size, threads);
    const Shape& shape = values.shape;
    if (variant.contiguous || shape.size() < 2 || shape.back() < tile ||
        !has_transposed_operand(variant, values)) {
        return launch;
    }
    const std::int64_t columns = shape.back();
    const std::int64_t rows = (std::int64_t{launch.block} + columns - 1) / columns;
    constexpr std::int64_t most = 0x7fffffff;
    if (rows * columns > most) {
        return launch;
    }
    launch.block = static_cast<unsigned>(rows * columns);
    launch.grid = static_cast<unsigned>((values.size + rows * columns - 1) / (rows * columns));
    launch.tile_columns = host_tile_columns(variant);
    return launch;
}

}  // namespace kiln::detail
