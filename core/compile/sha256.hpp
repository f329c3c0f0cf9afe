// SHA-256 through OpenSSL's libcrypto: the compile cache names its files by the digest of
// everything that changes a compiled binary, and checks each file's payload against its digest.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace kiln::detail {

inline constexpr std::size_t sha256_size = 32;
using Sha256Digest = std::array<std::byte, sha256_size>;

// The SHA-256 of `bytes`. Throws Error when libcrypto fails (it allocates a context).
[[nodiscard]] Sha256Digest sha256(std::span<const std::byte> bytes);

// Lower-case hexadecimal, two digits per byte.
[[nodiscard]] std::string to_hex(std::span<const std::byte> bytes);

// The SHA-256 of `text` in lower-case hexadecimal (64 digits).
[[nodiscard]] std::string sha256_hex(std::string_view text);

}  // namespace kiln::detail
