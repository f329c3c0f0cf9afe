#include "sha256.hpp"

#include "sha256_constants.hpp"
#include "sha256_x86.hpp"

#include <algorithm>
#include <bit>

namespace kiln::detail {

namespace {

// FIPS 180-4 section 5.3.3: the first 32 bits of the fractional parts of the square roots of the
// first 8 primes.
constexpr std::array<std::uint32_t, 8> initial_state = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

std::uint32_t load_big_endian(const std::byte* bytes) noexcept {
    std::uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
        value = (value << 8U) | std::to_integer<std::uint32_t>(bytes[i]);
    }
    return value;
}

void store_big_endian(std::uint64_t value, std::byte* bytes, int count) noexcept {
    for (int i = count - 1; i >= 0; --i) {
        bytes[i] = static_cast<std::byte>(value & 0xffU);
        value >>= 8U;
    }
}

}  // namespace

Sha256::Sha256(Implementation implementation) noexcept {
    static const bool available = sha_extensions_available();
    hardware_ = implementation == Implementation::fastest && available;
    reset();
}

void Sha256::reset() noexcept {
    state_ = initial_state;
    buffered_ = 0;
    total_bytes_ = 0;
}

void Sha256::compress(const std::byte* blocks, std::size_t count) noexcept {
    if (hardware_) {
        compress_with_sha_extensions(state_, blocks, count);
        return;
    }
    for (std::size_t i = 0; i < count; ++i) {
        compress_portably(blocks + i * block_size);
    }
}

void Sha256::compress_portably(const std::byte* block) noexcept {
    std::array<std::uint32_t, 64> schedule{};
    for (std::size_t t = 0; t < 16; ++t) {
        schedule.at(t) = load_big_endian(block + 4 * t);
    }
    for (std::size_t t = 16; t < 64; ++t) {
        const std::uint32_t w15 = schedule.at(t - 15);
        const std::uint32_t w2 = schedule.at(t - 2);
        const std::uint32_t sigma0 = std::rotr(w15, 7) ^ std::rotr(w15, 18) ^ (w15 >> 3U);
        const std::uint32_t sigma1 = std::rotr(w2, 17) ^ std::rotr(w2, 19) ^ (w2 >> 10U);
        schedule.at(t) = schedule.at(t - 16) + sigma0 + schedule.at(t - 7) + sigma1;
    }
    auto [a, b, c, d, e, f, g, h] = state_;
    for (std::size_t t = 0; t < 64; ++t) {
        const std::uint32_t big_sigma1 = std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25);
        const std::uint32_t choose = (e & f) ^ (~e & g);
        const std::uint32_t t1 =
            h + big_sigma1 + choose + sha256_round_constants.at(t) + schedule.at(t);
        const std::uint32_t big_sigma0 = std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22);
        const std::uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
        const std::uint32_t t2 = big_sigma0 + majority;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state_[0] += a;
    state_[1] += b;
    state_[2] += c;
    state_[3] += d;
    state_[4] += e;
    state_[5] += f;
    state_[6] += g;
    state_[7] += h;
}

void Sha256::update(std::span<const std::byte> bytes) noexcept {
    total_bytes_ += bytes.size();
    if (buffered_ > 0) {
        const std::size_t taken = std::min(block_size - buffered_, bytes.size());
        std::copy_n(bytes.begin(), taken, buffer_.begin() + static_cast<std::ptrdiff_t>(buffered_));
        buffered_ += taken;
        bytes = bytes.subspan(taken);
        if (buffered_ < block_size) {
            return;
        }
        compress(buffer_.data(), 1);
        buffered_ = 0;
    }
    const std::size_t whole = bytes.size() / block_size;
    compress(bytes.data(), whole);
    bytes = bytes.subspan(whole * block_size);
    std::copy(bytes.begin(), bytes.end(), buffer_.begin());
    buffered_ = bytes.size();
}

void Sha256::update(std::string_view text) noexcept {
    update(std::as_bytes(std::span(text)));
}

Sha256::Digest Sha256::finish() noexcept {
    // Padding (section 5.1.1): a single 1 bit, zeros up to 56 bytes into a block, then the
    // message length in bits as a 64-bit big-endian number.
    const std::uint64_t total_bits = total_bytes_ * 8;
    buffer_.at(buffered_++) = std::byte{0x80};
    if (buffered_ > block_size - 8) {
        std::fill(buffer_.begin() + static_cast<std::ptrdiff_t>(buffered_), buffer_.end(),
                  std::byte{0});
        compress(buffer_.data(), 1);
        buffered_ = 0;
    }
    std::fill(buffer_.begin() + static_cast<std::ptrdiff_t>(buffered_), buffer_.end() - 8,
              std::byte{0});
    store_big_endian(total_bits, buffer_.data() + block_size - 8, 8);
    compress(buffer_.data(), 1);

    Digest digest{};
    for (std::size_t i = 0; i < state_.size(); ++i) {
        store_big_endian(state_.at(i), digest.data() + 4 * i, 4);
    }
    reset();
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
    Sha256 hash;
    hash.update(text);
    const auto digest = hash.finish();
    return to_hex(digest);
}

}  // namespace kiln::detail
