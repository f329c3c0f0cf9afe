// How libkiln calls a kernel compiled for the host: the host kernel ABI, defined once in the device
// header kiln/host_abi.h, which kernels include through kiln/host.h. Here, libkiln's names for it.
#pragma once

#include "../../dialects/host/device/kiln/host_abi.h"

namespace kiln::detail::host {

inline constexpr unsigned kernel_abi_version = KILN_HOST_ABI_VERSION;
inline constexpr const char* kernel_symbol_prefix = KILN_HOST_KERNEL_PREFIX;
inline constexpr unsigned long long shared_memory_per_block = KILN_HOST_SHARED_MEMORY_PER_BLOCK;

using WarpKind = kiln_host_warp_kind;
using BlockRuntime = kiln_host_runtime;
using LaunchGrid = kiln_host_grid;
using KernelDescriptor = kiln_host_kernel;

}  // namespace kiln::detail::host
