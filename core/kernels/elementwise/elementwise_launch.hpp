// The launch shape of an ElementwiseKernel call: grid, block, shared memory and the mode a
// strided variant runs in (see elementwise_kernel_source()).
#pragma once

#include "elementwise_arguments.hpp"
#include "elementwise_variant.hpp"

#include <cstddef>
#include <cstdint>

namespace kiln::detail {

struct ElementwiseLaunch {
    unsigned grid = 1;
    unsigned block = 256;
    std::size_t shared_bytes = 0;
    std::int64_t row_length = 0;  // row mode when non-zero: the innermost extent
    // Tiled mode when non-zero: on a GPU, the 32-wide tiles across; on the host, the columns of a
    // tile of host_tile_rows rows (elementwise_loops.hpp), and the blocks are whole rows.
    std::int64_t tile_columns = 0;
};

// The launch of a call with `values` (size > 0) on a device of `multiprocessors` SMs or CUs.
[[nodiscard]] ElementwiseLaunch elementwise_launch(const ElementwiseDefinition& definition,
                                                   const ElementwiseVariant& variant,
                                                   const CallValues& values,
                                                   std::int64_t multiprocessors);

// The launch of a host-dialect call of `size` (> 0) elements on `threads` CPU threads: blocks of
// block consecutive elements (elementwise_host_loops), a few per thread.
[[nodiscard]] ElementwiseLaunch host_elementwise_launch(std::int64_t size, std::int64_t threads);

// The same for a call with `values` of a host-dialect `variant`: in tiled mode, blocks of whole
// rows, when some operand steps less from row to row than along a row (a transpose), so that the
// loops can walk tiles, with as many columns as keep every operand's part of a tile within the
// CPU's level-1 data cache.
[[nodiscard]] ElementwiseLaunch host_elementwise_launch(const ElementwiseVariant& variant,
                                                        const CallValues& values,
                                                        std::int64_t threads);

}  // namespace kiln::detail
