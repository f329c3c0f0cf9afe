// The host dialect's ElementwiseKernel launch: the dialect's index grid, or blocks of whole rows
// walked in tiles when an operand is transposed.
#include "elementwise.hpp"

#include "dialect.hpp"

#include <algorithm>
#include <cstdlib>

#include <unistd.h>

namespace kiln::detail::host_dialect {

namespace {

constexpr std::int64_t tile = 32;

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
    while (columns > 4 && tile_rows * columns * row_bytes > budget) {
        columns /= 2;
    }
    return columns;
}

}  // namespace

ElementwiseLaunch elementwise_launch(const ElementwiseVariant& variant, const CallValues& values,
                                     std::int64_t threads) {
    const IndexGrid grid = dialect().index_grid(values.size, threads);
    ElementwiseLaunch launch;
    launch.grid = grid.grid;
    launch.block = grid.block;
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

}  // namespace kiln::detail::host_dialect
