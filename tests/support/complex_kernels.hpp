// Kernels over kiln/complex.h shared by the compile tests (every CI target) and the device tests
// (values against std::complex); each compiles under NVRTC and HIPRTC.
#pragma once

namespace kiln::test {

// An ElementwiseKernel preamble: operation `op` (0 to complex_operation_count - 1) of complex x
// and y and real s, written as a kernel body would, unqualified. Called as
// `z = apply(op, x, y, s)` with T complex and R real.
inline constexpr const char* complex_operations_preamble = R"(
template <class T, class R>
__device__ complex<T> apply(int op, const complex<T>& x, const complex<T>& y, R s) {
    complex<T> z = x;
    switch (op) {
    case 0: return x + y;
    case 1: return x - y;
    case 2: return x * y;
    case 3: return x / y;
    case 4: return x + s;
    case 5: return s + x;
    case 6: return x - s;
    case 7: return s - x;
    case 8: return x * s;
    case 9: return s * x;
    case 10: return x / s;
    case 11: return s / x;
    case 12: return -x;
    case 13: return +x;
    case 14: z += y; z -= s; z *= y; z /= s; return z;
    case 15: z *= s; z /= y; z += s; z -= y; return z;
    case 16: return abs(x);
    case 17: return arg(x);
    case 18: return norm(x);
    case 19: return conj(x);
    case 20: return exp(x);
    case 21: return log(x);
    case 22: return sqrt(x);
    case 23: return polar(s, y.real());
    case 24: return pow(x, R(0.125) * y);
    case 25: return pow(x, s * R(0.125));
    case 26: return pow(s, y * R(0.125));
    case 27: return x * (double)s * 0.5;
    case 28: return x + complex<float>(y);
    case 29: return complex<T>(x == y, x != s);
    }
    return complex<T>();
}
)";

// A RawKernel source that reaches the type through #include <kiln/complex.h>, qualified: for each
// element z of x, seven values at out[7 * i]: sqrt, log, exp, abs, polar(abs, arg), z^2 and
// z conj(z) / (1 + z). One entry point per precision.
inline constexpr const char* complex_functions_source = R"(
#include <kiln/complex.h>

template <class T>
__device__ void functions(const kiln::complex<T>* x, kiln::complex<T>* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const kiln::complex<T> z = x[i];
    kiln::complex<T>* o = out + 7 * i;
    o[0] = kiln::sqrt(z);
    o[1] = kiln::log(z);
    o[2] = kiln::exp(z);
    o[3] = kiln::abs(z);
    o[4] = kiln::polar(kiln::abs(z), kiln::arg(z));
    o[5] = kiln::pow(z, 2);
    o[6] = z * kiln::conj(z) / (T(1) + z);
}

extern "C" __global__ void functions_c64(const kiln::complex<float>* x,
                                         kiln::complex<float>* out, int n) {
    functions(x, out, n);
}
extern "C" __global__ void functions_c128(const kiln::complex<double>* x,
                                          kiln::complex<double>* out, int n) {
    functions(x, out, n);
}
)";

inline constexpr int complex_operation_count = 30;
inline constexpr int complex_function_count = 7;

}  // namespace kiln::test
