// The host dialect's matrix product: a block's tile computed by one thread, row by row of A, so
// that the innermost loop runs along rows of B and C.
#include "matmul.hpp"

#include "device_files.hpp"

#include <string>

namespace kiln::detail::host_dialect {

namespace {

// device/kiln/matmul.cuh: the grid and the parameters are the GPU kernel's. Each output sums over
// k in order, as each GPU thread does.
std::string kernel() {
    return std::string(device_file::matmul_cuh().text);
}

}  // namespace

const MatmulDialect matmul_part{&kernel};

}  // namespace kiln::detail::host_dialect
