#include "kernel_entry.hpp"

namespace kiln::detail {

namespace {

std::string body_name(std::string_view name) {
    return std::string(name) + "_kiln_body";
}

}  // namespace

std::string kernel_opening(Dialect dialect, std::string_view name, std::string_view params,
                           std::string_view gpu_attributes) {
    if (dialect == Dialect::host) {
        return "static void " + body_name(name) + "(const kiln_host_grid& _kiln_grid, " +
               std::string(params) + ") {\n";
    }
    return "extern \"C\" __global__ void " + std::string(gpu_attributes) + std::string(name) + "(" +
           std::string(params) + ") {\n";
}

std::string kernel_closing(Dialect dialect, std::string_view name) {
    if (dialect == Dialect::host) {
        return "KILN_HOST_KERNEL(" + std::string(name) + ", " + body_name(name) + ")\n";
    }
    return {};
}

std::string_view for_each_index_macro(Dialect dialect) noexcept {
    if (dialect == Dialect::host) {
        return R"(#define KILN_FOR_EACH_INDEX(n)                                                       \
    for (long long i = (long long)_kiln_grid.first * _kiln_grid.block.x,                      \
                   _kiln_end = (long long)_kiln_grid.end * _kiln_grid.block.x < (n)           \
                                   ? (long long)_kiln_grid.end * _kiln_grid.block.x           \
                                   : (n);                                                     \
         i < _kiln_end; ++i)
)";
    }
    return R"(#define KILN_FOR_EACH_INDEX(n)                                                         \
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n);       \
         i += (long long)gridDim.x * blockDim.x)
)";
}

}  // namespace kiln::detail
