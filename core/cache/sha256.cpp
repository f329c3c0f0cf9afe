#include "sha256.hpp"

#include <algorithm>
#include <bit>

namespace kiln::detail {

namespace {

// FIPS 180-4 section 4.2.2: the first 32 bits of the fractional parts of the cube roots of the
// first 64 primes.
constexpr std::array<std::uint32_t, 64> round_constants = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

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

Sha256::Sha256() noexcept {
    reset();
}

void Sha256::reset() noexcept {
    state_ = initial_state;
    buffered_ = 0;
    total_bytes_ = 0;
}

void Sha256::compress(const std::byte* block) noexcept {
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
        const std::uint32_t t1 = h + big_sigma1 + choose + round_constants.at(t) + schedule.at(t);
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
        compress(buffer_.data());
        buffered_ = 0;
    }
    while (bytes.size() >= block_size) {
        compress(bytes.data());
        bytes = bytes.subspan(block_size);
    }
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
        compress(buffer_.data());
        buffered_ = 0;
    }
    std::fill(buffer_.begin() + static_cast<std::ptrdiff_t>(buffered_), buffer_.end() - 8,
              std::byte{0});
    store_big_endian(total_bits, buffer_.data() + block_size - 8, 8);
    compress(buffer_.data());

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
