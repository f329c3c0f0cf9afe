// Runs a CUDA-dialect block whose threads wait for each other: one fiber per thread on the OS
// thread that runs the block, so the block's threads share its thread_local __shared__ memory.
// Each ready fiber runs until it waits (at __syncthreads or a warp function) or returns; when none
// is ready, the waits that every thread they need has reached are released together. Waits that
// can never be released (a barrier some threads return without reaching) are an Error, not a hang.
#pragma once

#include "kernel_abi.hpp"

namespace kiln::detail::host {

// The runtime every host launch hands its kernel (LaunchGrid::runtime).
[[nodiscard]] const BlockRuntime& block_runtime() noexcept;

}  // namespace kiln::detail::host
