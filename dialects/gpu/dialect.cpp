// How a GPU kernel opens and closes, and how its threads take indices.
#include "dialect.hpp"

#include "elementwise.hpp"
#include "matmul.hpp"
#include "reduction.hpp"
#include "scan.hpp"

#include "device_files.hpp"

#include <algorithm>
#include <array>

namespace kiln::detail::gpu_dialect {

namespace {

std::string kernel_opening(std::string_view name, std::string_view params,
                           std::string_view attributes) {
    return "extern \"C\" __global__ void " + std::string(attributes) + std::string(name) + "(" +
           std::string(params) + ") {\n";
}

std::string kernel_closing(std::string_view /*name*/) {
    return {};
}

// Grid-strided, so that any grid covers any count.
std::string_view for_each_index_macro() noexcept {
    return R"(#define KILN_FOR_EACH_INDEX(n)                                                         \
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n);       \
         i += (long long)gridDim.x * blockDim.x)
)";
}

// A wave at most: the loop strides over the rest.
IndexGrid index_grid(std::int64_t count, std::int64_t multiprocessors) {
    const std::int64_t wanted = (count + block_threads - 1) / block_threads;
    const std::int64_t wave = std::max<std::int64_t>(multiprocessors * resident_blocks, 1);
    return {static_cast<unsigned>(std::min(wanted, wave)), static_cast<unsigned>(block_threads)};
}

std::span<const DialectHeader> device_headers() {
    static const std::array<DialectHeader, 2> headers{
        {{"kiln/atomic.h", device_file::atomic_h()}, {"kiln/warp.h", device_file::warp_h()}}};
    return headers;
}

}  // namespace

std::string wave_launch_bounds() {
    return "__launch_bounds__(" + std::to_string(block_threads) + ", " +
           std::to_string(resident_blocks) + ") ";
}

const KernelDialect& dialect() {
    static const KernelDialect one{
        "gpu",           &kernel_opening, &kernel_closing, for_each_index_macro(),
        resident_blocks, &index_grid,     &device_headers, elementwise_part,
        reduction_part,  scan_part,       matmul_part};
    return one;
}

}  // namespace kiln::detail::gpu_dialect
