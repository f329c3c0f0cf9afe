// The element-wise operations of kiln's ufuncs (include/kiln/ufuncs.hpp) where NumPy's meaning
// differs from C++'s: integer arithmetic wraps (a signed overflow is undefined in C++, so it runs
// on the unsigned twin), integer division and remainder by zero give 0, floor division and
// remainder take the divisor's sign, maximum and minimum propagate NaN, shifts past the width
// give 0 (or the sign), and every cast goes through float for float16.
#ifndef KILN_UFUNC_H
#define KILN_UFUNC_H

#include <kiln/complex.h>
#include <kiln/float16.h>
#include <kiln/limits.h>

namespace kiln {
namespace ufunc {

template <class T, class S>
__device__ inline T cast(S s) {
    return static_cast<T>(s);
}
template <class T>
__device__ inline T cast(float16 s) {
    return static_cast<T>(static_cast<float>(s));
}

// The operations of every dtype that has no overload below (floating and complex): C++'s own.
template <class T>
__device__ inline T add(T a, T b) {
    return a + b;
}
template <class T>
__device__ inline T multiply(T a, T b) {
    return a * b;
}
__device__ inline bool maximum(bool a, bool b) {
    return a || b;
}
__device__ inline bool minimum(bool a, bool b) {
    return a && b;
}

#define KILN_UFUNC_INTEGER(T, U, BITS)                                             \
    __device__ inline T add(T a, T b) {                                            \
        return (T)((U)a + (U)b);                                                   \
    }                                                                              \
    __device__ inline T subtract(T a, T b) {                                       \
        return (T)((U)a - (U)b);                                                   \
    }                                                                              \
    __device__ inline T multiply(T a, T b) {                                       \
        return (T)((U)a * (U)b);                                                   \
    }                                                                              \
    __device__ inline T negative(T a) {                                            \
        return (T)((U)0 - (U)a);                                                   \
    }                                                                              \
    __device__ inline T maximum(T a, T b) {                                        \
        return a > b ? a : b;                                                      \
    }                                                                              \
    __device__ inline T minimum(T a, T b) {                                        \
        return a < b ? a : b;                                                      \
    }                                                                              \
    __device__ inline T left_shift(T a, T b) {                                     \
        return (b < 0 || b >= BITS) ? (T)0 : (T)((U)a << b);                       \
    }                                                                              \
    __device__ inline T power(T a, T b) {                                          \
        if (b < 0) {                                                               \
            return a == 1 ? (T)1 : (a == (T)-1 ? ((b & 1) ? (T)-1 : (T)1) : (T)0); \
        }                                                                          \
        U result = 1;                                                              \
        U base = (U)a;                                                             \
        for (unsigned long long e = (unsigned long long)b; e != 0; e >>= 1) {      \
            if (e & 1) {                                                           \
                result *= base;                                                    \
            }                                                                      \
            base *= base;                                                          \
        }                                                                          \
        return (T)result;                                                          \
    }
#define KILN_UFUNC_SIGNED(T, U, BITS)                                    \
    KILN_UFUNC_INTEGER(T, U, BITS)                                       \
    __device__ inline T floor_divide(T a, T b) {                         \
        if (b == 0) {                                                    \
            return 0;                                                    \
        }                                                                \
        if (b == -1) {                                                   \
            return negative(a);                                          \
        }                                                                \
        const T q = (T)(a / b);                                          \
        return (a % b != 0 && ((a < 0) != (b < 0))) ? (T)(q - 1) : q;    \
    }                                                                    \
    __device__ inline T remainder(T a, T b) {                            \
        if (b == 0 || b == -1) {                                         \
            return 0;                                                    \
        }                                                                \
        const T r = (T)(a % b);                                          \
        return (r != 0 && ((r < 0) != (b < 0))) ? (T)(r + b) : r;        \
    }                                                                    \
    __device__ inline T right_shift(T a, T b) {                          \
        return (b < 0 || b >= BITS) ? (T)(a < 0 ? -1 : 0) : (T)(a >> b); \
    }                                                                    \
    __device__ inline T absolute(T a) {                                  \
        return a < 0 ? negative(a) : a;                                  \
    }                                                                    \
    __device__ inline T sign(T a) {                                      \
        return (T)((a > 0) - (a < 0));                                   \
    }
#define KILN_UFUNC_UNSIGNED(T, U, BITS)          \
    KILN_UFUNC_INTEGER(T, U, BITS)               \
    __device__ inline T floor_divide(T a, T b) { \
        return b == 0 ? (T)0 : (T)(a / b);       \
    }                                            \
    __device__ inline T remainder(T a, T b) {    \
        return b == 0 ? (T)0 : (T)(a % b);       \
    }                                            \
    __device__ inline T right_shift(T a, T b) {  \
        return b >= BITS ? (T)0 : (T)(a >> b);   \
    }                                            \
    __device__ inline T absolute(T a) {          \
        return a;                                \
    }                                            \
    __device__ inline T sign(T a) {              \
        return (T)(a > 0);                       \
    }
KILN_UFUNC_SIGNED(signed char, unsigned int, 8)
KILN_UFUNC_SIGNED(short, unsigned int, 16)
KILN_UFUNC_SIGNED(int, unsigned int, 32)
KILN_UFUNC_SIGNED(long long, unsigned long long, 64)
KILN_UFUNC_UNSIGNED(unsigned char, unsigned int, 8)
KILN_UFUNC_UNSIGNED(unsigned short, unsigned int, 16)
KILN_UFUNC_UNSIGNED(unsigned int, unsigned int, 32)
KILN_UFUNC_UNSIGNED(unsigned long long, unsigned long long, 64)
#undef KILN_UFUNC_INTEGER
#undef KILN_UFUNC_SIGNED
#undef KILN_UFUNC_UNSIGNED

// Real math under one name per function for float and double (float16 computes in float).
#define KILN_UFUNC_REAL1(name, f, d)          \
    __device__ inline float name(float x) {   \
        return ::f(x);                        \
    }                                         \
    __device__ inline double name(double x) { \
        return ::d(x);                        \
    }
#define KILN_UFUNC_REAL2(name, f, d)                    \
    __device__ inline float name(float x, float y) {    \
        return ::f(x, y);                               \
    }                                                   \
    __device__ inline double name(double x, double y) { \
        return ::d(x, y);                               \
    }
KILN_UFUNC_REAL1(exp, expf, exp)
KILN_UFUNC_REAL1(exp2, exp2f, exp2)
KILN_UFUNC_REAL1(expm1, expm1f, expm1)
KILN_UFUNC_REAL1(log, logf, log)
KILN_UFUNC_REAL1(log2, log2f, log2)
KILN_UFUNC_REAL1(log10, log10f, log10)
KILN_UFUNC_REAL1(log1p, log1pf, log1p)
KILN_UFUNC_REAL1(sqrt, sqrtf, sqrt)
KILN_UFUNC_REAL1(cbrt, cbrtf, cbrt)
KILN_UFUNC_REAL1(sin, sinf, sin)
KILN_UFUNC_REAL1(cos, cosf, cos)
KILN_UFUNC_REAL1(tan, tanf, tan)
KILN_UFUNC_REAL1(arcsin, asinf, asin)
KILN_UFUNC_REAL1(arccos, acosf, acos)
KILN_UFUNC_REAL1(arctan, atanf, atan)
KILN_UFUNC_REAL1(sinh, sinhf, sinh)
KILN_UFUNC_REAL1(cosh, coshf, cosh)
KILN_UFUNC_REAL1(tanh, tanhf, tanh)
KILN_UFUNC_REAL1(arcsinh, asinhf, asinh)
KILN_UFUNC_REAL1(arccosh, acoshf, acosh)
KILN_UFUNC_REAL1(arctanh, atanhf, atanh)
KILN_UFUNC_REAL1(floor, floorf, floor)
KILN_UFUNC_REAL1(ceil, ceilf, ceil)
KILN_UFUNC_REAL1(trunc, truncf, trunc)
KILN_UFUNC_REAL1(rint, rintf, rint)
KILN_UFUNC_REAL1(absolute, fabsf, fabs)
KILN_UFUNC_REAL2(power, powf, pow)
KILN_UFUNC_REAL2(fmax, fmaxf, fmax)
KILN_UFUNC_REAL2(fmin, fminf, fmin)
KILN_UFUNC_REAL2(fmod, fmodf, fmod)
KILN_UFUNC_REAL2(copysign, copysignf, copysign)
KILN_UFUNC_REAL2(arctan2, atan2f, atan2)
#undef KILN_UFUNC_REAL1
#undef KILN_UFUNC_REAL2

#define KILN_UFUNC_FLOATING(T)                                 \
    __device__ inline T remainder(T a, T b) {                  \
        if (b == 0) {                                          \
            return fmod(a, b);                                 \
        }                                                      \
        T mod = fmod(a, b);                                    \
        if (mod != 0) {                                        \
            if ((b < 0) != (mod < 0)) {                        \
                mod += b;                                      \
            }                                                  \
        } else {                                               \
            mod = copysign(T(0), b);                           \
        }                                                      \
        return mod;                                            \
    }                                                          \
    __device__ inline T floor_divide(T a, T b) {               \
        if (b == 0) {                                          \
            return a / b;                                      \
        }                                                      \
        const T mod = fmod(a, b);                              \
        T div = (a - mod) / b;                                 \
        if (mod != 0 && ((b < 0) != (mod < 0))) {              \
            div -= T(1);                                       \
        }                                                      \
        if (div == 0) {                                        \
            return copysign(T(0), a / b);                      \
        }                                                      \
        T result = floor(div);                                 \
        return div - result > T(0.5) ? result + T(1) : result; \
    }                                                          \
    __device__ inline T maximum(T a, T b) {                    \
        return a != a ? a : (b != b ? b : (a >= b ? a : b));   \
    }                                                          \
    __device__ inline T minimum(T a, T b) {                    \
        return a != a ? a : (b != b ? b : (a <= b ? a : b));   \
    }                                                          \
    __device__ inline T sign(T a) {                            \
        return a > 0 ? T(1) : (a < 0 ? T(-1) : a);             \
    }                                                          \
    __device__ inline bool isnan(T a) {                        \
        return a != a;                                         \
    }                                                          \
    __device__ inline bool isfinite(T a) {                     \
        return a - a == a - a;                                 \
    }                                                          \
    __device__ inline bool isinf(T a) {                        \
        return a == a && a - a != a - a;                       \
    }
KILN_UFUNC_FLOATING(float)
KILN_UFUNC_FLOATING(double)
#undef KILN_UFUNC_FLOATING

template <class T>
__device__ inline bool isnan(const complex<T>& z) {
    return isnan(z.re) || isnan(z.im);
}
template <class T>
__device__ inline bool isinf(const complex<T>& z) {
    return isinf(z.re) || isinf(z.im);
}
template <class T>
__device__ inline bool isfinite(const complex<T>& z) {
    return isfinite(z.re) && isfinite(z.im);
}
// Complex numbers order lexicographically, as NumPy's do.
template <class T>
__device__ inline bool less(const complex<T>& a, const complex<T>& b) {
    return a.re < b.re || (a.re == b.re && a.im < b.im);
}
template <class T>
__device__ inline bool less_equal(const complex<T>& a, const complex<T>& b) {
    return a.re < b.re || (a.re == b.re && a.im <= b.im);
}
template <class T>
__device__ inline bool nonzero(const T& a) {
    return a != T(0);
}

// The reductions' helpers (core/routines): NaN as a reduction's identity, |x| and |x|^2 of real
// and complex values, argmax's and argmin's choice, and Welford's moments for var and std.
template <class T>
__device__ inline T nan_to(T value, T replacement) {
    return isnan(value) ? replacement : value;
}
template <class T>
__device__ inline T abs_squared(T a) {
    return a * a;
}
template <class T>
__device__ inline T abs_squared(const complex<T>& z) {
    return norm(z);
}
template <class T>
__device__ inline T magnitude(T a) {
    return absolute(a);
}
template <class T>
__device__ inline T magnitude(const complex<T>& z) {
    return abs(z);
}

// Of two (value `_0`, index `_1`) pairs: the first NaN, else the larger (smaller) value, and the
// first index among equals, so that every order of combining gives NumPy's answer.
template <class R>
__device__ inline R arg_max(const R& a, const R& b) {
    const bool a_nan = a._0 != a._0;
    if (a_nan != (b._0 != b._0)) {
        return a_nan ? a : b;
    }
    if (a_nan || a._0 == b._0) {
        return a._1 < b._1 ? a : b;
    }
    return a._0 > b._0 ? a : b;
}
template <class R>
__device__ inline R arg_min(const R& a, const R& b) {
    const bool a_nan = a._0 != a._0;
    if (a_nan != (b._0 != b._0)) {
        return a_nan ? a : b;
    }
    if (a_nan || a._0 == b._0) {
        return a._1 < b._1 ? a : b;
    }
    return a._0 < b._0 ? a : b;
}

// Exact comparisons of integers of either signedness, where C++ would make the signed one
// unsigned: the sign first, then the values as unsigned.
template <class A, class B>
__device__ inline bool integer_less(A a, B b) {
    const bool a_negative = a < A(0);
    if (a_negative != (b < B(0))) {
        return a_negative;
    }
    return static_cast<unsigned long long>(a) < static_cast<unsigned long long>(b);
}
template <class A, class B>
__device__ inline bool integer_equal(A a, B b) {
    return (a < A(0)) == (b < B(0)) &&
           static_cast<unsigned long long>(a) == static_cast<unsigned long long>(b);
}

// (count `_0`, mean `_1`, sum of squared deviations `_2`) of two parts, merged as Chan et al.'s
// pairwise update: one pass, stable, and any order of merging.
template <class R>
__device__ inline R welford(const R& a, const R& b) {
    if (b._0 == 0) {
        return a;
    }
    if (a._0 == 0) {
        return b;
    }
    typedef decltype(a._2) Real;
    const long long n = a._0 + b._0;
    const Real weight = Real(b._0) / Real(n);
    const auto delta = b._1 - a._1;
    return R(n, a._1 + delta * weight, a._2 + b._2 + abs_squared(delta) * Real(a._0) * weight);
}
// The variance of the moments `a`, divided by max(count - ddof, 0) as NumPy's.
template <class R>
__device__ inline auto variance(const R& a, long long ddof) -> decltype(a._2) {
    typedef decltype(a._2) Real;
    const Real dof = Real(a._0 - ddof);
    return a._2 / (dof > Real(0) ? dof : Real(0));
}
// nanvar's: NaN where count - ddof <= 0, which NumPy's nanvar marks as a bad slice.
template <class R>
__device__ inline auto nan_variance(const R& a, long long ddof) -> decltype(a._2) {
    typedef decltype(a._2) Real;
    return a._0 - ddof > 0 ? a._2 / Real(a._0 - ddof) : numeric_limits<Real>::quiet_NaN();
}

}  // namespace ufunc
}  // namespace kiln

#endif
