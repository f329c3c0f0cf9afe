// Tracing a fused function for one key, without building its kernel: for tests that inspect or
// compile the definition with no device.
#pragma once

#include "fused_source.hpp"

#include <kiln/fuse.hpp>

#include <string>

namespace kiln::detail {

// Runs `trace` on one traced value per argument of `key` and defines the kernel of its results.
[[nodiscard]] FusedDefinition trace_fused(const std::string& name, const FusionKey& key,
                                          const FusionTrace& trace);

}  // namespace kiln::detail
