// kiln's own batched matrix product, for dtypes and machines without a vendor BLAS: 64 x 64
// tiles of C through shared memory, each thread accumulating a 4 x 4 block, batches across the
// grid's third dimension.
#pragma once

#include "../../backend.hpp"
#include "../../backend_traits.hpp"

#include <kiln/dtype.hpp>
#include <kiln/stream_view.hpp>

#include <string>

namespace kiln::detail {

// The generated source for operands of `dtype` (exposed so that tests compile every one). On the
// host, a block's tile is computed by one thread, row by row of A, so that the innermost loop runs
// along rows of B and C.
[[nodiscard]] std::string matmul_source(DType dtype, Dialect dialect = Dialect::gpu);

// `call` with kiln's kernel: any integer, floating or complex dtype; float16 accumulates in
// float32.
void tiled_gemm(const GemmCall& call, StreamView stream);

}  // namespace kiln::detail
