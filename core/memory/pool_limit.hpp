// MemoryPool's limit in CuPy's terms: 0 bytes means no limit (set_limit(0),
// set_limit_fraction(0), KILN_GPU_MEMORY_LIMIT=0 or 0%), and get_limit() reports 0 then. The
// LimitResource under the pool keeps a plain cap, where 0 refuses everything; these translate.
#pragma once

#include <kiln/resource_adaptors.hpp>

#include <cstddef>

namespace kiln::detail {

// The LimitResource cap for a pool limit of `bytes`.
[[nodiscard]] constexpr std::size_t pool_limit_cap(std::size_t bytes) noexcept {
    return bytes == 0 ? LimitResource::no_limit : bytes;
}

// The pool limit a LimitResource cap stands for.
[[nodiscard]] constexpr std::size_t pool_limit_of_cap(std::size_t cap) noexcept {
    return cap == LimitResource::no_limit ? 0 : cap;
}

}  // namespace kiln::detail
