// The device spelling of box_muller.hpp's log and cos_two_pi, statement for statement, is the file
// kiln/box_muller.h; this writes the coefficients before it, as macros of exact hexadecimal
// literals.
#include "box_muller.hpp"

#include "../codegen/device_header_texts.hpp"

#include <array>
#include <cstdio>

namespace kiln::detail::box_muller {

namespace {

// A double as an exact hexadecimal literal.
std::string literal(double value) {
    std::array<char, 32> text{};
    (void)std::snprintf(text.data(), text.size(), "%a", value);
    return text.data();
}

// Statements on one line (a macro's body) leaving horner(c, w) in `p`, in horner's order.
template <std::size_t N>
std::string horner_source(const std::array<double, N>& c) {
    std::string source = "p = " + literal(c.back()) + ";";
    for (auto coefficient = c.rbegin() + 1; coefficient != c.rend(); ++coefficient) {
        source += " p = fma(p, w, " + literal(*coefficient) + ");";
    }
    return source;
}

}  // namespace

std::string source() {
    return "#define KILN_BOX_MULLER_SQRT_HALF " + literal(sqrt_half) +
           "\n#define KILN_BOX_MULLER_LN2_HI " + literal(ln2_hi) +
           "\n#define KILN_BOX_MULLER_LN2_LO " + literal(ln2_lo) +
           "\n#define KILN_BOX_MULLER_TWO_PI_HI " + literal(two_pi_hi) +
           "\n#define KILN_BOX_MULLER_TWO_PI_LO " + literal(two_pi_lo) +
           "\n#define KILN_BOX_MULLER_LOG_SERIES " + horner_source(log_series) +
           "\n#define KILN_BOX_MULLER_COS_SERIES " + horner_source(cos_series) +
           "\n#define KILN_BOX_MULLER_SIN_SERIES " + horner_source(sin_series) + "\n" +
           std::string(header_text::box_muller_h().text);
}

}  // namespace kiln::detail::box_muller
