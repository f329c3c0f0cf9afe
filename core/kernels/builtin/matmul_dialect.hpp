// What a kernel dialect supplies for kiln's own matrix product: the kernel kiln_matmul, launched
// on a grid of 64 x 64 tiles of C by (16, 16) blocks, batches across the grid's third dimension.
#pragma once

#include <string>

namespace kiln::detail {

struct MatmulDialect {
    // kiln_matmul(a, b, c, m, n, k, a_stride, b_stride, c_stride) over the typedefs kiln_t (the
    // operands) and kiln_acc (the sums).
    std::string (*kernel)();
};

}  // namespace kiln::detail
