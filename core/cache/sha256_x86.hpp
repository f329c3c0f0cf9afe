// SHA-256's block function on the x86 SHA extensions, which hash about twenty times faster than
// portable code: a disk-cache hit hashes its key's inputs and checks its file's payload.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace kiln::detail {

// Whether this CPU has the SHA extensions (and the SSSE3 and SSE4.1 they are used with).
[[nodiscard]] bool sha_extensions_available() noexcept;

// Runs `count` 64-byte blocks through the compression function. Call only where
// sha_extensions_available().
void compress_with_sha_extensions(std::array<std::uint32_t, 8>& state, const std::byte* blocks,
                                  std::size_t count) noexcept;

}  // namespace kiln::detail
