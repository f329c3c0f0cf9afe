// What the host backend must add to a user's CUDA-dialect source (RawKernel, RawModule, JIT
// kernels) for its kernels to be called as host kernels, found by reading the source: the
// __global__ functions to export, and the `extern __shared__` arrays to give storage. The source
// itself is compiled unchanged, after kiln/host_cuda.h.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kiln::detail::host {

struct CudaSourceScan {
    // Non-template __global__ functions named once (no overloads), qualified from the global
    // namespace ("ns::k"); template kernels are exported through name expressions.
    std::vector<std::string> kernels;
    // The assembler names of the `extern __shared__` arrays: all are the block's dynamic shared
    // memory, as on a GPU ("sdata"; "_ZN2ns5sdataE" in namespace ns).
    std::vector<std::string> dynamic_shared;
};

[[nodiscard]] CudaSourceScan scan_cuda_source(std::string_view source);

// The name a name expression's kernel is looked up by: its position among the expressions.
[[nodiscard]] std::string expression_symbol(std::size_t index);

// What follows the source: the exports of `scan`'s kernels under their names and of each name
// expression's under expression_symbol, and the dynamic shared memory of `shared_bytes`.
[[nodiscard]] std::string cuda_source_epilogue(const CudaSourceScan& scan,
                                               const std::vector<std::string>& name_expressions,
                                               std::size_t shared_bytes);

}  // namespace kiln::detail::host
