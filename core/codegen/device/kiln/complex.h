// complex<double> keeps 16-byte alignment on both vendors (CuPy loses it on HIP), so host
// std::complex<double> arrays and device arrays share one layout, and a contiguous kernel moves
// each element with one 16-byte access. The type stays trivially copyable (no copy constructor
// or assignment of its own): reductions move it through warp shuffles as words.
//
// Mixed operations follow thrust::complex, which CuPy's kernels use: complex<T> with complex<U>,
// or with any arithmetic U, computes in the type of T() + U() (complex<float> * 2 stays float,
// complex<float> * 2.0 is complex<double>), and converts back implicitly on assignment.
//
// Inside namespace kiln the real math functions are called as ::sqrt, ::sqrtf...: kiln's own
// complex sqrt, exp, log and abs would hide them from unqualified calls.
#ifndef KILN_COMPLEX_H
#define KILN_COMPLEX_H

namespace kiln {

namespace detail {

// The real types a complex number combines with: every arithmetic type.
template <class T>
struct real_operand {};
#define KILN_DETAIL_REAL_OPERAND(T) \
    template <>                     \
    struct real_operand<T> {        \
        using type = T;             \
    };
KILN_DETAIL_REAL_OPERAND(bool)
KILN_DETAIL_REAL_OPERAND(char)
KILN_DETAIL_REAL_OPERAND(signed char)
KILN_DETAIL_REAL_OPERAND(unsigned char)
KILN_DETAIL_REAL_OPERAND(short)
KILN_DETAIL_REAL_OPERAND(unsigned short)
KILN_DETAIL_REAL_OPERAND(int)
KILN_DETAIL_REAL_OPERAND(unsigned int)
KILN_DETAIL_REAL_OPERAND(long)
KILN_DETAIL_REAL_OPERAND(unsigned long)
KILN_DETAIL_REAL_OPERAND(long long)
KILN_DETAIL_REAL_OPERAND(unsigned long long)
KILN_DETAIL_REAL_OPERAND(float)
KILN_DETAIL_REAL_OPERAND(double)
#undef KILN_DETAIL_REAL_OPERAND

// The type an operation of T and U computes in; no such type (so no overload) when U is not
// arithmetic.
template <class T, class U>
using promoted = decltype(T() + typename real_operand<U>::type());

// float stays float; every other arithmetic type computes in double (polar(2, 1)).
template <class T>
struct floating {
    using type = double;
};
template <>
struct floating<float> {
    using type = float;
};
template <class T, class U>
using floating_promoted = typename floating<promoted<T, U>>::type;

// The real math functions, overloaded on float and double under one name.
#define KILN_DETAIL_REAL_FUNCTION(name, f, d) \
    __device__ inline float name(float x) {   \
        return ::f(x);                        \
    }                                         \
    __device__ inline double name(double x) { \
        return ::d(x);                        \
    }
#define KILN_DETAIL_REAL_FUNCTION2(name, f, d)          \
    __device__ inline float name(float x, float y) {    \
        return ::f(x, y);                               \
    }                                                   \
    __device__ inline double name(double x, double y) { \
        return ::d(x, y);                               \
    }
KILN_DETAIL_REAL_FUNCTION(sqrt_of, sqrtf, sqrt)
KILN_DETAIL_REAL_FUNCTION(abs_of, fabsf, fabs)
KILN_DETAIL_REAL_FUNCTION(exp_of, expf, exp)
KILN_DETAIL_REAL_FUNCTION(log_of, logf, log)
KILN_DETAIL_REAL_FUNCTION2(hypot_of, hypotf, hypot)
KILN_DETAIL_REAL_FUNCTION2(atan2_of, atan2f, atan2)
KILN_DETAIL_REAL_FUNCTION2(copysign_of, copysignf, copysign)
#undef KILN_DETAIL_REAL_FUNCTION
#undef KILN_DETAIL_REAL_FUNCTION2

__device__ inline void sincos_of(float x, float* s, float* c) {
    ::sincosf(x, s, c);
}
__device__ inline void sincos_of(double x, double* s, double* c) {
    ::sincos(x, s, c);
}
// Infinite: beyond the largest finite value.
__device__ inline bool is_inf(float x) {
    return ::fabsf(x) > 0x1.fffffep+127F;
}
__device__ inline bool is_inf(double x) {
    return ::fabs(x) > 0x1.fffffffffffffp+1023;
}

}  // namespace detail

template <class T>
struct alignas(2 * sizeof(T)) complex {
    T re;
    T im;
    __device__ complex() : re(0), im(0) {}
    __device__ complex(T real, T imag = T(0)) : re(real), im(imag) {}
    template <class U>
    __device__ complex(const complex<U>& z) : re(T(z.re)), im(T(z.im)) {}
    __device__ T real() const { return re; }
    __device__ T imag() const { return im; }
    __device__ void real(T value) { re = value; }
    __device__ void imag(T value) { im = value; }
    __device__ explicit operator bool() const { return re != T(0) || im != T(0); }

    template <class U>
    __device__ complex& operator+=(const complex<U>& z) {
        re += z.re;
        im += z.im;
        return *this;
    }
    template <class U>
    __device__ complex& operator-=(const complex<U>& z) {
        re -= z.re;
        im -= z.im;
        return *this;
    }
    template <class U>
    __device__ complex& operator*=(const complex<U>& z) {
        return *this = *this * z;
    }
    template <class U>
    __device__ complex& operator/=(const complex<U>& z) {
        return *this = *this / z;
    }
    template <class U, class = typename detail::real_operand<U>::type>
    __device__ complex& operator+=(const U& x) {
        re += x;
        return *this;
    }
    template <class U, class = typename detail::real_operand<U>::type>
    __device__ complex& operator-=(const U& x) {
        re -= x;
        return *this;
    }
    template <class U, class = typename detail::real_operand<U>::type>
    __device__ complex& operator*=(const U& x) {
        re *= x;
        im *= x;
        return *this;
    }
    template <class U, class = typename detail::real_operand<U>::type>
    __device__ complex& operator/=(const U& x) {
        re /= x;
        im /= x;
        return *this;
    }
};

template <class T>
__device__ complex<T> operator+(const complex<T>& z) {
    return z;
}
template <class T>
__device__ complex<T> operator-(const complex<T>& z) {
    return complex<T>(-z.re, -z.im);
}

template <class T, class U>
__device__ complex<detail::promoted<T, U>> operator+(const complex<T>& a, const complex<U>& b) {
    return complex<detail::promoted<T, U>>(a.re + b.re, a.im + b.im);
}
template <class T, class U>
__device__ complex<detail::promoted<T, U>> operator-(const complex<T>& a, const complex<U>& b) {
    return complex<detail::promoted<T, U>>(a.re - b.re, a.im - b.im);
}
template <class T, class U>
__device__ complex<detail::promoted<T, U>> operator*(const complex<T>& a, const complex<U>& b) {
    return complex<detail::promoted<T, U>>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}

namespace detail {

// (a + bi) / (c + di) by Smith's method: scaling by the larger of |c| and |d| keeps c^2 + d^2
// from overflowing or underflowing. A zero divisor gives infinities (or NaN for 0 / 0).
template <class T>
__device__ complex<T> divide(T a, T b, T c, T d) {
    if (abs_of(c) >= abs_of(d)) {
        if (c == T(0)) {
            return complex<T>(a / abs_of(c), b / abs_of(c));
        }
        const T r = d / c;
        const T s = T(1) / (c + d * r);
        return complex<T>((a + b * r) * s, (b - a * r) * s);
    }
    const T r = c / d;
    const T s = T(1) / (c * r + d);
    return complex<T>((a * r + b) * s, (b * r - a) * s);
}

}  // namespace detail

template <class T, class U>
__device__ complex<detail::promoted<T, U>> operator/(const complex<T>& a, const complex<U>& b) {
    typedef detail::promoted<T, U> R;
    return detail::divide<R>(a.re, a.im, b.re, b.im);
}

template <class T, class U>
__device__ complex<detail::promoted<T, U>> operator+(const complex<T>& a, const U& x) {
    return complex<detail::promoted<T, U>>(a.re + x, a.im);
}
template <class T, class U>
__device__ complex<detail::promoted<T, U>> operator+(const U& x, const complex<T>& a) {
    return complex<detail::promoted<T, U>>(x + a.re, a.im);
}
template <class T, class U>
__device__ complex<detail::promoted<T, U>> operator-(const complex<T>& a, const U& x) {
    return complex<detail::promoted<T, U>>(a.re - x, a.im);
}
template <class T, class U>
__device__ complex<detail::promoted<T, U>> operator-(const U& x, const complex<T>& a) {
    return complex<detail::promoted<T, U>>(x - a.re, -a.im);
}
template <class T, class U>
__device__ complex<detail::promoted<T, U>> operator*(const complex<T>& a, const U& x) {
    return complex<detail::promoted<T, U>>(a.re * x, a.im * x);
}
template <class T, class U>
__device__ complex<detail::promoted<T, U>> operator*(const U& x, const complex<T>& a) {
    return complex<detail::promoted<T, U>>(x * a.re, x * a.im);
}
template <class T, class U>
__device__ complex<detail::promoted<T, U>> operator/(const complex<T>& a, const U& x) {
    return complex<detail::promoted<T, U>>(a.re / x, a.im / x);
}
template <class T, class U>
__device__ complex<detail::promoted<T, U>> operator/(const U& x, const complex<T>& a) {
    typedef detail::promoted<T, U> R;
    return detail::divide<R>(x, R(0), a.re, a.im);
}

template <class T, class U>
__device__ bool operator==(const complex<T>& a, const complex<U>& b) {
    return a.re == b.re && a.im == b.im;
}
template <class T, class U>
__device__ bool operator!=(const complex<T>& a, const complex<U>& b) {
    return !(a == b);
}
template <class T, class U, class = typename detail::real_operand<U>::type>
__device__ bool operator==(const complex<T>& a, const U& x) {
    return a.re == x && a.im == T(0);
}
template <class T, class U, class = typename detail::real_operand<U>::type>
__device__ bool operator==(const U& x, const complex<T>& a) {
    return a == x;
}
template <class T, class U, class = typename detail::real_operand<U>::type>
__device__ bool operator!=(const complex<T>& a, const U& x) {
    return !(a == x);
}
template <class T, class U, class = typename detail::real_operand<U>::type>
__device__ bool operator!=(const U& x, const complex<T>& a) {
    return !(a == x);
}

template <class T>
__device__ T real(const complex<T>& z) {
    return z.re;
}
template <class T>
__device__ T imag(const complex<T>& z) {
    return z.im;
}
// |z|^2, as std::norm.
template <class T>
__device__ T norm(const complex<T>& z) {
    return z.re * z.re + z.im * z.im;
}
template <class T>
__device__ complex<T> conj(const complex<T>& z) {
    return complex<T>(z.re, -z.im);
}
// |z| without overflow or underflow in between: abs(3e30f + 4e30fi) is 5e30f.
template <class T>
__device__ T abs(const complex<T>& z) {
    return detail::hypot_of(z.re, z.im);
}
// The angle in [-pi, pi]; its sign follows a signed zero imaginary part, as atan2.
template <class T>
__device__ T arg(const complex<T>& z) {
    return detail::atan2_of(z.im, z.re);
}
template <class R, class A>
__device__ complex<detail::floating_promoted<R, A>> polar(const R& r, const A& theta) {
    typedef detail::floating_promoted<R, A> F;
    F s;
    F c;
    detail::sincos_of(F(theta), &s, &c);
    return complex<F>(F(r) * c, F(r) * s);
}
template <class R>
__device__ complex<detail::floating_promoted<R, R>> polar(const R& r) {
    typedef detail::floating_promoted<R, R> F;
    return complex<F>(F(r), F(0));
}

// e^z; a real argument keeps its exact real result and signed zero imaginary part.
template <class T>
__device__ complex<T> exp(const complex<T>& z) {
    const T e = detail::exp_of(z.re);
    if (z.im == T(0)) {
        return complex<T>(e, z.im);
    }
    T s;
    T c;
    detail::sincos_of(z.im, &s, &c);
    return complex<T>(e * c, e * s);
}
// The principal logarithm: imaginary part in [-pi, pi], so log(-1) is i*pi and log(-1 - 0i) is
// -i*pi; log(0) is -infinity.
template <class T>
__device__ complex<T> log(const complex<T>& z) {
    return complex<T>(detail::log_of(abs(z)), arg(z));
}
// The principal square root: real part >= 0, imaginary part with the sign of z's (so the cut on
// the negative real axis follows a signed zero: sqrt(-4 + 0i) = 2i, sqrt(-4 - 0i) = -2i).
template <class T>
__device__ complex<T> sqrt(const complex<T>& z) {
    if (z.re == T(0) && z.im == T(0)) {
        return complex<T>(T(0), z.im);
    }
    if (detail::is_inf(z.im)) {
        return complex<T>(detail::abs_of(z.im), z.im);
    }
    // t = sqrt((|re| + |z|) / 2), halved before adding so that it cannot overflow.
    const T t = detail::sqrt_of(T(0.5) * detail::abs_of(z.re) + T(0.5) * abs(z));
    if (z.re >= T(0)) {
        return complex<T>(t, z.im / (T(2) * t));
    }
    return complex<T>(detail::abs_of(z.im) / (T(2) * t), detail::copysign_of(t, z.im));
}

namespace detail {

// z^w as e^(w log z); w = 0 gives 1 and 0 to a power with positive real part gives 0, where
// e^(w log 0) would be NaN.
template <class T>
__device__ complex<T> power(const complex<T>& z, const complex<T>& w) {
    if (w.re == T(0) && w.im == T(0)) {
        return complex<T>(T(1));
    }
    if (z.re == T(0) && z.im == T(0) && w.im == T(0) && w.re > T(0)) {
        return complex<T>();
    }
    return exp(w * log(z));
}

}  // namespace detail

template <class T, class U>
__device__ complex<detail::promoted<T, U>> pow(const complex<T>& z, const complex<U>& w) {
    typedef detail::promoted<T, U> R;
    return detail::power<R>(z, w);
}
template <class T, class U>
__device__ complex<detail::promoted<T, U>> pow(const complex<T>& z, const U& x) {
    typedef detail::promoted<T, U> R;
    return detail::power<R>(z, complex<R>(R(x)));
}
template <class T, class U>
__device__ complex<detail::promoted<T, U>> pow(const U& x, const complex<T>& w) {
    typedef detail::promoted<T, U> R;
    return detail::power<R>(complex<R>(R(x)), w);
}

}  // namespace kiln

#endif
