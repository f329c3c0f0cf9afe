// The launch shape of an ElementwiseKernel call, as a dialect plans it: grid, block, shared memory
// and the mode a strided variant runs in (see elementwise_kernel_source()).
#pragma once

#include <cstddef>
#include <cstdint>

namespace kiln::detail {

struct ElementwiseLaunch {
    unsigned grid = 1;
    unsigned block = 256;
    std::size_t shared_bytes = 0;
    std::int64_t row_length = 0;  // row mode when non-zero: the innermost extent
    // Tiled mode when non-zero: on a GPU, the 32-wide tiles across; on the host, the columns of a
    // tile of whole rows.
    std::int64_t tile_columns = 0;
};

}  // namespace kiln::detail
