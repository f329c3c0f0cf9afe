// The GPU dialect's matrix product: 64 x 64 tiles of C through shared memory, each thread
// accumulating a 4 x 4 block.
#include "matmul.hpp"

#include "device_files.hpp"

#include <string>
#include <string_view>

namespace kiln::detail::gpu_dialect {

namespace {

// device/kiln/matmul.cuh. Block (16, 16): thread (x, y) computes rows y + 16 i and columns
// x + 16 j of the tile, so that neighbouring threads read neighbouring shared words and write
// neighbouring outputs.
std::string kernel() {
    return "\n" + std::string(device_file::matmul_cuh().text);
}

}  // namespace

const MatmulDialect matmul_part{&kernel};

}  // namespace kiln::detail::gpu_dialect
