// The device spelling of box_muller.hpp's log and cos_two_pi, statement for statement, with the
// coefficients written in as exact hexadecimal literals.
#include "box_muller.hpp"

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

// Statements leaving horner(c, w) in `p`, in horner's order.
template <std::size_t N>
std::string horner_source(const std::array<double, N>& c) {
    std::string source = "    p = " + literal(c.back()) + ";\n";
    for (auto coefficient = c.rbegin() + 1; coefficient != c.rend(); ++coefficient) {
        source += "    p = fma(p, w, " + literal(*coefficient) + ");\n";
    }
    return source;
}

}  // namespace

std::string source() {
    return R"(__device__ inline double kiln_box_muller_log(double x) {
    int e = 0;
    double m = frexp(x, &e);
    if (m < )" +
           literal(sqrt_half) +
           R"() {
        m = m + m;
        e = e - 1;
    }
    const double k = e;
    const double f = m - 1.0;
    const double s = f / (2.0 + f);
    const double w = s * s;
    const double h = 0.5 * f;
    double p;
)" + horner_source(log_series) +
           "    const double t = fma(s, fma(h, f, w * p), k * " + literal(ln2_lo) + ");\n" +
           "    return fma(k, " + literal(ln2_hi) + R"(, -(fma(h, f, -t) - f));
}
__device__ inline double kiln_box_muller_cos_two_pi(double u) {
    const double q = rint(4.0 * u);
    const double r = fma(q, -0.25, u);
    const double w = r * r;
    double p;
)" + horner_source(cos_series) +
           "    const double cos_r = p;\n" + horner_source(sin_series) +
           "    const double sin_r = fma(" + literal(two_pi_hi) + ", r, r * fma(p, w, " +
           literal(two_pi_lo) + R"());
    switch (static_cast<int>(q) & 3) {
        case 0:
            return cos_r;
        case 1:
            return -sin_r;
        case 2:
            return -cos_r;
        default:
            return sin_r;
    }
}
)";
}

}  // namespace kiln::detail::box_muller
