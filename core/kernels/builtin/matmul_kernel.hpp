// kiln's own batched matrix product, for dtypes and machines without a vendor BLAS: 64 x 64
// tiles of C through shared memory, each thread accumulating a 4 x 4 block, batches across the
// grid's third dimension.
#pragma once

#include "../../backend.hpp"
#include "../../codegen/kernel_dialect.hpp"

#include <kiln/dtype.hpp>
#include <kiln/stream_view.hpp>

#include <string>

namespace kiln::detail {

// The generated source for operands of `dtype` in `dialect` (exposed so that tests compile every
// one): the typedefs kiln_t and kiln_acc, then the dialect's kernel (matmul_dialect.hpp).
[[nodiscard]] std::string matmul_source(DType dtype, const KernelDialect& dialect);

// `call` with kiln's kernel: any integer, floating or complex dtype; float16 accumulates in
// float32.
void tiled_gemm(const GemmCall& call, StreamView stream);

}  // namespace kiln::detail
