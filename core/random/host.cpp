// The host twins of kiln::random: the definition in include/kiln/random.hpp, element by element.
// Every product that is followed by a sum is either exact or an explicit fma, so that no compiler
// contraction can change a value.
#include "arguments.hpp"
#include "box_muller.hpp"

#include <kiln/random.hpp>

#include <bit>
#include <cmath>
#include <cstring>

// x86-64 builds of libkiln target CPUs without fma, where std::fma is a call into the C library
// that doubles the cost of a normal draw; a clone for CPUs with fma, chosen when libkiln loads,
// inlines it. Both clones compute the same values, fma being exact.
#if defined(__x86_64__)
#define KILN_FMA_CLONES [[gnu::target_clones("fma", "default")]]
#else
#define KILN_FMA_CLONES
#endif

namespace kiln::detail {

namespace {

struct Words {
    std::uint64_t x;
    std::uint64_t y;
};

// Philox4x32-10 of element k's counter under the seed's key.
Words words(std::uint64_t seed, std::uint64_t k) {
    const auto w = random::philox4x32(
        {static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(k >> 32U), 0, 0},
        {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32U)});
    return {w[0] | (std::uint64_t{w[1]} << 32U), w[2] | (std::uint64_t{w[3]} << 32U)};
}

// The top `bits` bits of x as a number in [0, 1), exactly.
double unit_interval(std::uint64_t x, int bits) {
    return std::ldexp(static_cast<double>(x >> (64 - bits)), -bits);
}

// The float nearest `value` toward zero with its last bit set when inexact (round to odd):
// rounding it to half then gives the correctly rounded double -> half conversion, since float
// keeps more than two bits beyond half's precision.
float round_to_odd(double value) {
    auto f = static_cast<float>(value);
    if (static_cast<double>(f) == value || !std::isfinite(value)) {
        return f;
    }
    if (std::abs(static_cast<double>(f)) > std::abs(value)) {
        f = std::nextafter(f, 0.0F);
    }
    return std::bit_cast<float>(std::bit_cast<std::uint32_t>(f) | 1U);
}

// The high 64 bits of the 128-bit product a * b, from 32-bit halves (no __int128 in ISO C++).
std::uint64_t multiply_high(std::uint64_t a, std::uint64_t b) {
    constexpr std::uint64_t low_half = 0xffffffffU;
    const std::uint64_t a_low = a & low_half;
    const std::uint64_t a_high = a >> 32U;
    const std::uint64_t b_low = b & low_half;
    const std::uint64_t b_high = b >> 32U;
    const std::uint64_t high_low = a_high * b_low;
    // At most 3 (2^32 - 1) + (2^32 - 1)^2 - (2^32 - 1) = 2^64 - 1: no overflow.
    const std::uint64_t middle = ((a_low * b_low) >> 32U) + (high_low & low_half) + a_low * b_high;
    return a_high * b_high + (high_low >> 32U) + (middle >> 32U);
}

// Stores `value` rounded once, to nearest even, into element `index` of a `dtype` array.
void store_real(void* out, DType dtype, std::size_t index, double value) {
    switch (dtype) {
        case DType::float16:
            static_cast<half*>(out)[index] = half(round_to_odd(value));
            break;
        case DType::float32:
            static_cast<float*>(out)[index] = static_cast<float>(value);
            break;
        default:
            static_cast<double*>(out)[index] = value;
            break;
    }
}

// Stores `value`, which fits, into element `index` of an integer `dtype` array.
void store_integer(void* out, DType dtype, std::size_t index, std::int64_t value) {
    const std::size_t size = itemsize(dtype);
    // Little-endian hosts (every host kiln supports) keep the low bytes first.
    static_assert(std::endian::native == std::endian::little);
    std::memcpy(static_cast<char*>(out) + index * size, &value, size);
}

}  // namespace

void random_uniform_host(void* out, DType dtype, std::size_t count, double low, double high,
                         std::uint64_t seed, const char* function) {
    check_random_real_dtype(dtype, function);
    check_uniform_range(low, high, function);
    const double span = high - low;
    const int bits = significand_bits(dtype);
    for (std::size_t k = 0; k < count; ++k) {
        const double u = unit_interval(words(seed, k).x, bits);
        store_real(out, dtype, k, std::fma(span, u, low));
    }
}

KILN_FMA_CLONES void random_normal_host(void* out, DType dtype, std::size_t count, double mean,
                                        double stddev, std::uint64_t seed, const char* function) {
    check_random_real_dtype(dtype, function);
    check_normal_parameters(mean, stddev, function);
    for (std::size_t k = 0; k < count; ++k) {
        const Words w = words(seed, k);
        const double u1 = unit_interval(w.x, 53);
        const double u2 = unit_interval(w.y, 53);
        const double z = std::sqrt(-2.0 * box_muller::log(1.0 - u1)) * box_muller::cos_two_pi(u2);
        store_real(out, dtype, k, std::fma(stddev, z, mean));
    }
}

void random_integers_host(void* out, DType dtype, std::size_t count, std::int64_t low,
                          std::int64_t high, std::uint64_t seed, const char* function) {
    check_random_integer_dtype(dtype, function);
    check_integer_range(low, high, dtype, function);
    const std::uint64_t range = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint64_t offset = multiply_high(words(seed, k).x, range);
        store_integer(out, dtype, k,
                      static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + offset));
    }
}

}  // namespace kiln::detail
