#include "dialect.hpp"

#include "elementwise.hpp"
#include "matmul.hpp"
#include "reduction.hpp"
#include "scan.hpp"

#include "../../core/codegen/device_header_texts.hpp"

#include <array>

namespace kiln::detail::gpu_dialect {

std::span<const DialectHeader> device_headers() {
    static const std::array<DialectHeader, 2> headers{
        {{"kiln/atomic.h", header_text::atomic_h()}, {"kiln/warp.h", header_text::warp_h()}}};
    return headers;
}

const KernelDialect& dialect() {
    static const KernelDialect one{
        "gpu",       &kernel_opening, &kernel_closing,  for_each_index_macro(),
        &index_grid, &device_headers, elementwise_part, reduction_part,
        scan_part,   matmul_part};
    return one;
}

}  // namespace kiln::detail::gpu_dialect
