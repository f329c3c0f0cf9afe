#include "kernels.hpp"

#include "../codegen/device_prelude.hpp"
#include "../codegen/kernel_dialect.hpp"
#include "arguments.hpp"
#include "box_muller.hpp"

#include <string>
#include <string_view>

namespace kiln::detail {

namespace {

// Philox4x32-10 of counter (k mod 2^32, k div 2^32, 0, 0) and key (seed mod 2^32, seed div 2^32),
// as the 64-bit words x and y; and the high half of a 64 x 64-bit product from 32-bit halves,
// which every device compiler has.
constexpr std::string_view generator_source = R"(
struct kiln_random_words {
    unsigned long long x;
    unsigned long long y;
};
__device__ inline kiln_random_words kiln_philox(unsigned long long seed, unsigned long long k) {
    unsigned int c0 = static_cast<unsigned int>(k);
    unsigned int c1 = static_cast<unsigned int>(k >> 32);
    unsigned int c2 = 0;
    unsigned int c3 = 0;
    unsigned int k0 = static_cast<unsigned int>(seed);
    unsigned int k1 = static_cast<unsigned int>(seed >> 32);
#pragma unroll
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        const unsigned long long p0 = 0xD2511F53ull * c0;
        const unsigned long long p1 = 0xCD9E8D57ull * c2;
        const unsigned int n0 = static_cast<unsigned int>(p1 >> 32) ^ c1 ^ k0;
        const unsigned int n2 = static_cast<unsigned int>(p0 >> 32) ^ c3 ^ k1;
        c1 = static_cast<unsigned int>(p1);
        c3 = static_cast<unsigned int>(p0);
        c0 = n0;
        c2 = n2;
    }
    kiln_random_words w;
    w.x = c0 | (static_cast<unsigned long long>(c1) << 32);
    w.y = c2 | (static_cast<unsigned long long>(c3) << 32);
    return w;
}
__device__ inline unsigned long long kiln_mulhi64(unsigned long long a, unsigned long long b) {
    const unsigned long long a_lo = a & 0xffffffffull;
    const unsigned long long a_hi = a >> 32;
    const unsigned long long b_lo = b & 0xffffffffull;
    const unsigned long long b_hi = b >> 32;
    const unsigned long long hi_lo = a_hi * b_lo;
    const unsigned long long cross = ((a_lo * b_lo) >> 32) + (hi_lo & 0xffffffffull) + a_lo * b_hi;
    return a_hi * b_hi + (hi_lo >> 32) + (cross >> 32);
}
)";

std::string uniform_body(DType dtype) {
    const std::string bits = std::to_string(significand_bits(dtype));
    return "        const double u = static_cast<double>(w.x >> (64 - " + bits + ")) * 0x1p-" +
           bits + ";\n        out[i] = static_cast<T>(fma(b, u, a));\n";
}

constexpr std::string_view normal_body =
    R"(        const double u1 = static_cast<double>(w.x >> 11) * 0x1p-53;
        const double u2 = static_cast<double>(w.y >> 11) * 0x1p-53;
        const double z = sqrt(-2.0 * kiln_box_muller_log(1.0 - u1)) * kiln_box_muller_cos_two_pi(u2);
        out[i] = static_cast<T>(fma(b, z, a));
)";

constexpr std::string_view integers_body =
    R"(        const unsigned long long offset = kiln_mulhi64(w.x, range);
        out[i] = static_cast<T>(static_cast<long long>(static_cast<unsigned long long>(low) + offset));
)";

}  // namespace

std::string random_source(RandomDistribution distribution, DType dtype,
                          const KernelDialect& dialect, bool blocked) {
    const bool integral = distribution == RandomDistribution::integers;
    const bool normal = distribution == RandomDistribution::normal;
    std::string source =
        std::string(device_prelude()) + std::string(dialect.for_each_index_macro) +
        std::string(generator_source) + (normal ? box_muller::source() : std::string()) +
        "typedef " + std::string(c_type(dtype)) + " T;\n" +
        dialect.kernel_opening(
            random_kernel_name,
            std::string("T* out, long long n, unsigned long long seed, ") +
                (integral ? "long long low, unsigned long long range" : "double a, double b") +
                (blocked ? ", long long offset, long long run, long long stride" : ""),
            {}) +
        "    KILN_FOR_EACH_INDEX(n) {\n" +
        (blocked ? "        const long long k = offset + (i / run) * stride + i % run;\n"
                 : "        const long long k = i;\n") +
        "        const kiln_random_words w = kiln_philox(seed, "
        "static_cast<unsigned long long>(k));\n";
    switch (distribution) {
        case RandomDistribution::uniform:
            source += uniform_body(dtype);
            break;
        case RandomDistribution::normal:
            source += normal_body;
            break;
        case RandomDistribution::integers:
            source += integers_body;
            break;
    }
    return source + "    }\n}\n" + dialect.kernel_closing(random_kernel_name);
}

}  // namespace kiln::detail
