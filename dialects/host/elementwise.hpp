// The host dialect's part of ElementwiseKernel: the loops and the launch planner.
#pragma once

#include "../../core/kernels/elementwise/elementwise_dialect.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::detail::host_dialect {

// Rows of the tiles of tiled mode; _tile_columns says how many columns.
inline constexpr int tile_rows = 128;

// The kernel's body between its prologue and after_loop, indented for it.
[[nodiscard]] std::string elementwise_loops(const std::vector<LoopOperand>& operands,
                                            const LoopShape& shape);

// The launch of a call with `values` (size > 0) on `threads` CPU threads: the dialect's index
// grid, or, in tiled mode, blocks of whole rows, when some operand steps less from row to row than
// along a row (a transpose), so that the loops can walk tiles, with as many columns as keep every
// operand's part of a tile within the CPU's level-1 data cache.
[[nodiscard]] ElementwiseLaunch elementwise_launch(const ElementwiseVariant& variant,
                                                   const CallValues& values, std::int64_t threads);

extern const ElementwiseDialect elementwise_part;

}  // namespace kiln::detail::host_dialect
