#include "kernels.hpp"

#include "../codegen/device_header_texts.hpp"
#include "../codegen/device_prelude.hpp"
#include "../codegen/kernel_dialect.hpp"
#include "arguments.hpp"
#include "box_muller.hpp"

#include <string>
#include <string_view>

namespace kiln::detail {

namespace {

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
        std::string(device_prelude()) + std::string(dialect.for_each_index_macro) + "\n" +
        std::string(header_text::philox_h().text) +
        (normal ? box_muller::source() : std::string()) + "typedef " + std::string(c_type(dtype)) +
        " T;\n" +
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
