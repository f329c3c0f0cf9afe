// kiln/complex.h on a real GPU: every operation in an ElementwiseKernel body and the functions in
// a RawKernel that includes the header, on complex64 and complex128, against std::complex on the
// host (relative error 1e-6 for complex64, 1e-14 for complex128), and the special values the
// principal branches and the overflow-safe forms must give exactly or to rounding.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/complex_kernels.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

namespace {

using kiln::Dim3;
using kiln::ElementwiseKernel;
using kiln::ndarray;
using C = std::complex<double>;

template <class T>
constexpr double tolerance = std::is_same_v<T, float> ? 1e-6 : 1e-14;

// |got - want| / |want|, or the absolute error where want is 0.
double relative_error(C got, C want) {
    const double scale = std::abs(want);
    return std::abs(got - want) / (scale > 0 ? scale : 1.0);
}

// Non-zero parts of mixed signs and sizes; no value near 1, where log loses relative accuracy in
// any implementation.
const std::vector<double> parts{-2.5, -1.25, -0.5, 0.3, 0.75, 1.5, 2.25};

// Each operation the kernel applies, by number, and the host's value of it. x and y are complex,
// s real, all already rounded to the kernel's precision T. Powers take exponents scaled by 1/8,
// so that e^(w log z) does not amplify the rounding of log z past complex64's tolerance.
constexpr int operation_count = kiln::test::complex_operation_count;

template <class T>
C expected(int op, C x, C y, double s) {
    using std::complex;
    // What the kernel's conversion to complex<float> does to a value it computed in double.
    const auto in_t = [](C v) { return C(complex<T>(v)); };
    switch (op) {
        case 0:
            return x + y;
        case 1:
            return x - y;
        case 2:
            return x * y;
        case 3:
            return x / y;
        case 4:
            return x + s;
        case 5:
            return s + x;
        case 6:
            return x - s;
        case 7:
            return s - x;
        case 8:
            return x * s;
        case 9:
            return s * x;
        case 10:
            return x / s;
        case 11:
            return s / x;
        case 12:
            return -x;
        case 13:
            return +x;
        case 14:
            return in_t(in_t(in_t(in_t(x + y) - s) * y) / s);
        case 15:
            return in_t(in_t(in_t(in_t(x * s) / y) + s) - y);
        case 16:
            return std::abs(x);
        case 17:
            return std::arg(x);
        case 18:
            return std::norm(x);
        case 19:
            return std::conj(x);
        case 20:
            return std::exp(x);
        case 21:
            return std::log(x);
        case 22:
            return std::sqrt(x);
        case 23:
            return {s * std::cos(y.real()), s * std::sin(y.real())};  // s may be negative
        case 24:
            return std::pow(x, 0.125 * y);
        case 25:
            return std::pow(x, 0.125 * s);
        case 26:
            return std::pow(s, 0.125 * y);
        case 27:
            return x * s * 0.5;
        case 28:
            return x + C(complex<float>(y));
        case 29:
            return {x == y ? 1.0 : 0.0, x != s ? 1.0 : 0.0};
        default:
            return {};
    }
}

template <class T>
void expect_every_operation() {
    const ElementwiseKernel operations("T x, T y, R s, int32 op", "T z", "z = apply(op, x, y, s)",
                                       "complex_operations",
                                       {.preamble = kiln::test::complex_operations_preamble});
    std::vector<std::complex<T>> x;
    std::vector<std::complex<T>> y;
    std::vector<T> s;
    for (const double re : parts) {
        for (const double im : parts) {
            x.emplace_back(static_cast<T>(re), static_cast<T>(im));
        }
    }
    // Every 9th y equals its x, so == and != see both answers.
    for (std::size_t i = 0; i < x.size(); ++i) {
        y.push_back(i % 9 == 0 ? x[i] : x[(i * 5 + 1) % x.size()]);
        s.push_back(static_cast<T>(parts[(i * 3) % parts.size()]));
    }
    const ndarray dx = kiln::array(x);
    const ndarray dy = kiln::array(y);
    const ndarray ds = kiln::array(s);
    for (int op = 0; op < operation_count; ++op) {
        SCOPED_TRACE("operation " + std::to_string(op));
        const auto got = operations({dx, dy, ds, op}).template get<std::complex<T>>();
        ASSERT_EQ(got.size(), x.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            const C want = expected<T>(op, C(x[i]), C(y[i]), s[i]);
            EXPECT_LE(relative_error(C(got[i]), want), tolerance<T>)
                << "x = " << x[i] << ", y = " << y[i] << ", s = " << s[i] << ": got " << got[i]
                << ", want " << want;
        }
    }
}

TEST(Complex, EveryOperationInAnElementwiseBodyOnComplex64) {
    KILN_REQUIRE_DEVICE();
    expect_every_operation<float>();
}

TEST(Complex, EveryOperationInAnElementwiseBodyOnComplex128) {
    KILN_REQUIRE_DEVICE();
    expect_every_operation<double>();
}

constexpr int function_count = kiln::test::complex_function_count;

C expected_function(int k, C z) {
    switch (k) {
        case 0:
            return std::sqrt(z);
        case 1:
            return std::log(z);
        case 2:
            return std::exp(z);
        case 3:
            return std::abs(z);
        case 4:
            return z;
        case 5:
            return z * z;
        default:
            return z * std::conj(z) / (1.0 + z);
    }
}

template <class T>
std::vector<std::complex<T>> run_functions(const std::vector<std::complex<T>>& z) {
    const kiln::RawKernel kernel(kiln::test::complex_functions_source,
                                 std::is_same_v<T, float> ? "functions_c64" : "functions_c128");
    const ndarray in = kiln::array(z);
    ndarray out = kiln::empty({static_cast<std::int64_t>(z.size()) * function_count},
                              kiln::dtype_of<std::complex<T>>);
    const int n = static_cast<int>(z.size());
    kernel(Dim3{static_cast<unsigned>((n + 127) / 128)}, Dim3{128}, {in, out, n});
    return out.get<std::complex<T>>();
}

template <class T>
void expect_functions_match_the_host() {
    std::vector<std::complex<T>> z;
    for (const double re : parts) {
        for (const double im : parts) {
            z.emplace_back(static_cast<T>(re), static_cast<T>(im));
        }
    }
    const auto got = run_functions(z);
    for (std::size_t i = 0; i < z.size(); ++i) {
        for (int k = 0; k < function_count; ++k) {
            const C want = expected_function(k, C(z[i]));
            const C value(got[i * function_count + static_cast<std::size_t>(k)]);
            EXPECT_LE(relative_error(value, want), tolerance<T>)
                << "function " << k << " of " << z[i] << ": got " << value << ", want " << want;
        }
    }
}

TEST(Complex, RawKernelFunctionsMatchTheHostOnComplex64) {
    KILN_REQUIRE_DEVICE();
    expect_functions_match_the_host<float>();
}

TEST(Complex, RawKernelFunctionsMatchTheHostOnComplex128) {
    KILN_REQUIRE_DEVICE();
    expect_functions_match_the_host<double>();
}

// The principal branches, signed zeros, and |z| and quotients whose squared magnitudes overflow.
template <class T>
void expect_special_values() {
    const T pi = std::numbers::pi_v<T>;
    const T big = std::is_same_v<T, float> ? T(1e30) : T(1e300);
    const std::vector<std::complex<T>> z{{-4, 0}, {-4, -T(0)},        {-1, 0}, {0, pi}, {3, 4},
                                         {0, 2},  {3 * big, 4 * big}, {0, 0}};
    const auto got = run_functions(z);
    const auto at = [&](std::size_t input, int function) {
        return C(got[input * function_count + static_cast<std::size_t>(function)]);
    };
    const double eps = std::numeric_limits<T>::epsilon();
    const auto near = [&](C value, C want) { return std::abs(value - want) <= 4 * eps; };
    // sqrt(-4 + 0i) = 2i and sqrt(-4 - 0i) = -2i exactly, real parts +0.
    EXPECT_EQ(at(0, 0), C(0, 2));
    EXPECT_FALSE(std::signbit(at(0, 0).real()));
    EXPECT_EQ(at(1, 0), C(0, -2));
    // log(-1) = i*pi, and -i*pi below the cut.
    EXPECT_TRUE(near(at(2, 1), C(0, pi))) << at(2, 1);
    EXPECT_TRUE(near(at(0, 1), C(std::log(4.0), pi))) << at(0, 1);
    EXPECT_TRUE(near(at(1, 1), C(std::log(4.0), -pi))) << at(1, 1);
    // exp(i*pi) = -1 to rounding (sin(pi) rounded is not 0).
    EXPECT_TRUE(near(at(3, 2), C(-1, 0))) << at(3, 2);
    // abs(3 + 4i) = 5 exactly; polar(2, pi/2) = 2i to rounding; sqrt(2i) = 1 + i.
    EXPECT_EQ(at(4, 3), C(5, 0));
    EXPECT_TRUE(near(at(5, 4), C(0, 2))) << at(5, 4);
    EXPECT_TRUE(near(at(5, 0), C(1, 1))) << at(5, 0);
    // |3e30 + 4e30i| = 5e30 in float (its square overflows); 5e300 in double.
    EXPECT_NEAR(at(6, 3).real() / (5 * static_cast<double>(big)), 1.0, 4 * eps);
    EXPECT_NEAR(at(6, 4).real() / (3 * static_cast<double>(big)), 1.0, 8 * eps);
    // sqrt(0) = 0, log(0) = -inf.
    EXPECT_EQ(at(7, 0), C(0, 0));
    EXPECT_TRUE(std::isinf(at(7, 1).real()) && at(7, 1).real() < 0) << at(7, 1);
}

TEST(Complex, SpecialValuesOnComplex64) {
    KILN_REQUIRE_DEVICE();
    expect_special_values<float>();
}

TEST(Complex, SpecialValuesOnComplex128) {
    KILN_REQUIRE_DEVICE();
    expect_special_values<double>();
}

// A quotient of numbers whose squared magnitudes overflow, in an ElementwiseKernel body:
// (3 + 4i) b / ((4 - 3i) b) = i for any b.
TEST(Complex, DivisionDoesNotOverflowForLargeMagnitudes) {
    KILN_REQUIRE_DEVICE();
    const ElementwiseKernel divide("T x, T y", "T z", "z = x / y", "complex_divide");
    const std::vector<std::complex<double>> x{{3e300, 4e300}, {3e-300, 4e-300}};
    const std::vector<std::complex<double>> y{{4e300, -3e300}, {4e-300, -3e-300}};
    for (const auto& value : divide({kiln::array(x), kiln::array(y)}).get<std::complex<double>>()) {
        EXPECT_NEAR(value.real(), 0.0, 1e-15) << value;
        EXPECT_NEAR(value.imag(), 1.0, 1e-15) << value;
    }
    const std::vector<std::complex<float>> xf{{3e30F, 4e30F}};
    const std::vector<std::complex<float>> yf{{4e30F, -3e30F}};
    const auto quotient = divide({kiln::array(xf), kiln::array(yf)}).get<std::complex<float>>();
    EXPECT_NEAR(quotient.at(0).real(), 0.0, 1e-6) << quotient.at(0);
    EXPECT_NEAR(quotient.at(0).imag(), 1.0, 1e-6) << quotient.at(0);
}

}  // namespace
