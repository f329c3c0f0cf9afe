// How a generated kernel opens and closes in each dialect, so that a generator writes its body
// once: a GPU kernel is an `extern "C" __global__` function; a host kernel is a function of the
// launch's block range (_kiln_grid) that kiln/host.h's KILN_HOST_KERNEL exports under the
// kernel's name.
#pragma once

#include "../backend_traits.hpp"

#include <string>
#include <string_view>

namespace kiln::detail {

// The kernel's head through its body's opening brace and newline. `gpu_attributes`
// ("__launch_bounds__(256, 8) ") go before the name of a GPU kernel.
[[nodiscard]] std::string kernel_opening(Dialect dialect, std::string_view name,
                                         std::string_view params,
                                         std::string_view gpu_attributes = {});

// What follows the body's closing brace: on the host, the export of the kernel.
[[nodiscard]] std::string kernel_closing(Dialect dialect, std::string_view name);

// `KILN_FOR_EACH_INDEX(n)`: a loop of `long long i` over this thread's indices below n, grid-
// strided on a GPU, over the elements of the call's blocks (blockDim.x each) on the host.
[[nodiscard]] std::string_view for_each_index_macro(Dialect dialect) noexcept;

}  // namespace kiln::detail
