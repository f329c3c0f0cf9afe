#include "dialect.hpp"

#include "elementwise.hpp"
#include "matmul.hpp"
#include "reduction.hpp"
#include "scan.hpp"

#include "../../core/codegen/device_header_texts.hpp"

#include <array>

namespace kiln::detail::host_dialect {

std::span<const DialectHeader> device_headers() {
    static const std::array<DialectHeader, 6> headers{
        {{"kiln/atomic.h", header_text::host_atomic_h()},
         {"kiln/host.h", header_text::host_h()},
         {"kiln/host_abi.h", header_text::host_abi_h()},
         {"kiln/host_cuda.h", header_text::host_cuda_h()},
         {"kiln/host_cuda_math.h", header_text::host_cuda_math_h()},
         {"kiln/warp.h", header_text::host_warp_h()}}};
    return headers;
}

const KernelDialect& dialect() {
    static const KernelDialect one{
        "host",      &kernel_opening, &kernel_closing,  for_each_index_macro(),
        &index_grid, &device_headers, elementwise_part, reduction_part,
        scan_part,   matmul_part};
    return one;
}

}  // namespace kiln::detail::host_dialect
