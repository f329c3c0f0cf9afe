// How a host kernel opens and closes, and how its blocks take indices: a kernel is a function of
// the launch's block range (_kiln_grid) that kiln/host.h's KILN_HOST_KERNEL exports under the
// kernel's name (the host kernel ABI, device/kiln/host_abi.h).
#include "dialect.hpp"

#include "elementwise.hpp"
#include "matmul.hpp"
#include "reduction.hpp"
#include "scan.hpp"

#include "device_files.hpp"

#include <algorithm>
#include <array>

namespace kiln::detail::host_dialect {

namespace {

std::string body_name(std::string_view name) {
    return std::string(name) + "_kiln_body";
}

std::string kernel_opening(std::string_view name, std::string_view params,
                           std::string_view /*attributes*/) {
    return "static void " + body_name(name) + "(const kiln_host_grid& _kiln_grid, " +
           std::string(params) + ") {\n";
}

std::string kernel_closing(std::string_view name) {
    return "KILN_HOST_KERNEL(" + std::string(name) + ", " + body_name(name) + ")\n";
}

// The elements of the call's blocks, blockDim.x each.
std::string_view for_each_index_macro() noexcept {
    return R"(#define KILN_FOR_EACH_INDEX(n)                                                       \
    for (long long i = (long long)_kiln_grid.first * _kiln_grid.block.x,                      \
                   _kiln_end = (long long)_kiln_grid.end * _kiln_grid.block.x < (n)           \
                                   ? (long long)_kiln_grid.end * _kiln_grid.block.x           \
                                   : (n);                                                     \
         i < _kiln_end; ++i)
)";
}

// A wave of blocks, none so small that calling the block's loop costs more than running it.
IndexGrid index_grid(std::int64_t count, std::int64_t multiprocessors) {
    constexpr std::int64_t least = 4096;
    constexpr std::int64_t most = 0x7fffffff;
    const std::int64_t wanted = std::max<std::int64_t>(1, multiprocessors) * resident_blocks;
    const std::int64_t per_block = std::clamp((count + wanted - 1) / wanted, least, most);
    return {static_cast<unsigned>((count + per_block - 1) / per_block),
            static_cast<unsigned>(per_block)};
}

std::span<const DialectHeader> device_headers() {
    static const std::array<DialectHeader, 6> headers{
        {{"kiln/atomic.h", device_file::atomic_h()},
         {"kiln/host.h", device_file::host_h()},
         {"kiln/host_abi.h", device_file::host_abi_h()},
         {"kiln/host_cuda.h", device_file::host_cuda_h()},
         {"kiln/host_cuda_math.h", device_file::host_cuda_math_h()},
         {"kiln/warp.h", device_file::warp_h()}}};
    return headers;
}

}  // namespace

const KernelDialect& dialect() {
    static const KernelDialect one{
        "host",          &kernel_opening, &kernel_closing, for_each_index_macro(),
        resident_blocks, &index_grid,     &device_headers, elementwise_part,
        reduction_part,  scan_part,       matmul_part};
    return one;
}

}  // namespace kiln::detail::host_dialect
