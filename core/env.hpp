// Reading kiln's environment variables, with errors that name the variable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kiln::detail::env {

// The variable's value, or nothing when it is unset or empty.
[[nodiscard]] std::optional<std::string> get(const char* name);

// A non-negative integer. Throws Error naming the variable when the text is not one.
[[nodiscard]] int parse_index(const char* name, std::string_view text);

// A memory limit: a byte count ("1073741824") or a percentage of `total` ("50%", "12.5%"). "0"
// and "0%" give 0, which MemoryPool reads as no limit, as CuPy reads CUPY_GPU_MEMORY_LIMIT.
// Throws Error naming the variable when the text is neither, or the percentage exceeds 100.
[[nodiscard]] std::size_t parse_memory_limit(const char* name, std::string_view text,
                                             std::size_t total);

// A size in bytes: a count ("1073741824") or one with a binary suffix K, M, G or T ("512M" is
// 512 * 2^20). Throws Error naming the variable when the text is not one, or it overflows.
[[nodiscard]] std::uint64_t parse_byte_size(const char* name, std::string_view text);

}  // namespace kiln::detail::env
