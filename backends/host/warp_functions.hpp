// The results of the CUDA dialect's warp functions on the host: given what each lane of a warp
// passed, what each gets back, as the GPU computes it (PTX's shfl.sync, vote.sync, match.sync and
// redux.sync). block_scheduler.cpp gathers the lanes; this is the arithmetic alone.
#pragma once

#include "kernel_abi.hpp"

#include <array>

namespace kiln::detail::host {

inline constexpr unsigned warp_lanes = 32;

// What one lane passed to a warp function.
struct WarpRequest {
    WarpKind kind = kiln_warp_sync;
    unsigned mask = 0;
    unsigned long long value = 0;
    int operand = 0;
    int width = static_cast<int>(warp_lanes);
};

using WarpValues = std::array<unsigned long long, warp_lanes>;

// Each lane's result for the lanes of `group` (bit i: lane i), which call a warp function
// together; requests[i] is lane i's. A shuffle from a lane outside the group returns the lane's
// own value (CUDA leaves it undefined).
[[nodiscard]] WarpValues warp_results(const std::array<WarpRequest, warp_lanes>& requests,
                                      unsigned group);

}  // namespace kiln::detail::host
