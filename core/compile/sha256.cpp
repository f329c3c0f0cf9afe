#include "sha256.hpp"

#include <kiln/error.hpp>

#include <openssl/evp.h>

namespace kiln::detail {

Sha256Digest sha256(std::span<const std::byte> bytes) {
    Sha256Digest digest{};
    unsigned int length = 0;
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): libcrypto takes unsigned char
    auto* out = reinterpret_cast<unsigned char*>(digest.data());
    if (EVP_Digest(bytes.data(), bytes.size(), out, &length, EVP_sha256(), nullptr) != 1) {
        throw Error("kiln: EVP_Digest (SHA-256) failed in libcrypto");
    }
    if (length != digest.size()) {
        throw Error("kiln: EVP_Digest (SHA-256) returned " + std::to_string(length) +
                    " bytes, expected 32");
    }
    return digest;
}

std::string to_hex(std::span<const std::byte> bytes) {
    static constexpr std::string_view digits = "0123456789abcdef";
    std::string text;
    text.reserve(2 * bytes.size());
    for (const std::byte byte : bytes) {
        const auto value = std::to_integer<unsigned>(byte);
        text += digits[value >> 4U];
        text += digits[value & 0xfU];
    }
    return text;
}

std::string sha256_hex(std::string_view text) {
    return to_hex(sha256(std::as_bytes(std::span(text))));
}

}  // namespace kiln::detail
