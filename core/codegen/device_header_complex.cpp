#include "device_header_texts.hpp"

namespace kiln::detail::header_text {

namespace {

// complex<double> keeps 16-byte alignment on both vendors (CuPy loses it on HIP), so host
// std::complex<double> arrays and device arrays share one layout.
constexpr std::string_view text = R"kiln(#ifndef KILN_COMPLEX_H
#define KILN_COMPLEX_H

namespace kiln {

template <class T>
struct alignas(2 * sizeof(T)) complex {
    T re;
    T im;
    __device__ complex() : re(0), im(0) {}
    __device__ complex(T real, T imag = T(0)) : re(real), im(imag) {}
    template <class U>
    __device__ explicit complex(const complex<U>& z) : re(T(z.re)), im(T(z.im)) {}
    __device__ T real() const { return re; }
    __device__ T imag() const { return im; }
    __device__ explicit operator bool() const { return re != T(0) || im != T(0); }
};

template <class T>
__device__ complex<T> operator+(const complex<T>& a, const complex<T>& b) {
    return complex<T>(a.re + b.re, a.im + b.im);
}
template <class T>
__device__ complex<T> operator-(const complex<T>& a, const complex<T>& b) {
    return complex<T>(a.re - b.re, a.im - b.im);
}
template <class T>
__device__ complex<T> operator*(const complex<T>& a, const complex<T>& b) {
    return complex<T>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
template <class T>
__device__ complex<T> operator/(const complex<T>& a, const complex<T>& b) {
    const T d = b.re * b.re + b.im * b.im;
    return complex<T>((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d);
}
template <class T>
__device__ bool operator==(const complex<T>& a, const complex<T>& b) {
    return a.re == b.re && a.im == b.im;
}
template <class T>
__device__ T real(const complex<T>& z) { return z.re; }
template <class T>
__device__ T imag(const complex<T>& z) { return z.im; }
template <class T>
__device__ T norm(const complex<T>& z) { return z.re * z.re + z.im * z.im; }
template <class T>
__device__ complex<T> conj(const complex<T>& z) { return complex<T>(z.re, -z.im); }

}  // namespace kiln

#endif
)kiln";

}  // namespace

std::string_view complex_h() noexcept {
    return text;
}

}  // namespace kiln::detail::header_text
