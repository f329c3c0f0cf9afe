// SHA-256 (FIPS 180-4): the compile cache names its files by the digest of everything that
// changes a compiled binary, and checks each file's payload against its digest.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace kiln::detail {

// An incremental SHA-256: feed bytes in any pieces, then take the digest of their concatenation.
class Sha256 {
public:
    static constexpr std::size_t digest_size = 32;
    using Digest = std::array<std::byte, digest_size>;
    // fastest: the CPU's SHA instructions where it has them; portable: plain C++ everywhere.
    enum class Implementation : std::uint8_t { fastest, portable };

    explicit Sha256(Implementation implementation = Implementation::fastest) noexcept;
    void update(std::span<const std::byte> bytes) noexcept;
    void update(std::string_view text) noexcept;
    // The digest of everything fed since construction or the last finish(); the object then
    // starts over, ready for a new message.
    [[nodiscard]] Digest finish() noexcept;

private:
    static constexpr std::size_t block_size = 64;
    void compress(const std::byte* blocks, std::size_t count) noexcept;
    void compress_portably(const std::byte* block) noexcept;
    void reset() noexcept;

    bool hardware_ = false;
    std::array<std::uint32_t, 8> state_{};
    std::array<std::byte, block_size> buffer_{};
    std::size_t buffered_ = 0;
    std::uint64_t total_bytes_ = 0;
};

// Lower-case hexadecimal, two digits per byte.
[[nodiscard]] std::string to_hex(std::span<const std::byte> bytes);

// The SHA-256 of `text` in lower-case hexadecimal (64 digits).
[[nodiscard]] std::string sha256_hex(std::string_view text);

}  // namespace kiln::detail
