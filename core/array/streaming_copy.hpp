// A host copy whose stores bypass the CPU caches (non-temporal stores on x86-64, memcpy
// elsewhere), for a target the CPU will not read soon: a download's pageable destination. Plain
// stores first read each destination line into the cache; on the H100 machine, downloads through
// the staging ring ran at 0.68 of a pinned copy with memcpy and 0.99 with these (docs/perf.md).
#pragma once

#include <cstddef>

namespace kiln::detail {

void streaming_copy(void* target, const void* source, std::size_t bytes) noexcept;

}  // namespace kiln::detail
