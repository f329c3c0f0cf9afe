#include "device_prelude.hpp"

namespace kiln::detail {

namespace {

// complex<double> keeps 16-byte alignment on both vendors (CuPy loses it on HIP), so host
// std::complex<double> arrays and device arrays share one layout.
constexpr std::string_view prelude = R"kiln(
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

// IEEE binary16, converted with the hardware's round-to-nearest-even.
struct float16 {
    unsigned short bits;
    __device__ float16() : bits(0) {}
#if defined(__HIPCC_RTC__) || defined(__HIP__)
    __device__ float16(float f) : bits(__builtin_bit_cast(unsigned short, static_cast<_Float16>(f))) {}
    __device__ float16(double d) : bits(__builtin_bit_cast(unsigned short, static_cast<_Float16>(d))) {}
    __device__ operator float() const { return static_cast<float>(__builtin_bit_cast(_Float16, bits)); }
#else
    __device__ float16(float f) { asm("cvt.rn.f16.f32 %0, %1;" : "=h"(bits) : "f"(f)); }
    __device__ float16(double d) { asm("cvt.rn.f16.f64 %0, %1;" : "=h"(bits) : "d"(d)); }
    __device__ operator float() const {
        float f;
        asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(bits));
        return f;
    }
#endif
    // Integers convert exactly through double for every value a float16 can hold.
    __device__ float16(int v) : float16(static_cast<double>(v)) {}
    __device__ float16(long long v) : float16(static_cast<double>(v)) {}
    __device__ float16(unsigned int v) : float16(static_cast<double>(v)) {}
    __device__ float16(unsigned long long v) : float16(static_cast<double>(v)) {}
    __device__ float16(short v) : float16(static_cast<double>(v)) {}
    __device__ float16(unsigned short v) : float16(static_cast<double>(v)) {}
    __device__ float16(signed char v) : float16(static_cast<double>(v)) {}
    __device__ float16(unsigned char v) : float16(static_cast<double>(v)) {}
    __device__ float16(bool v) : float16(v ? 1.0f : 0.0f) {}
};

}  // namespace kiln

using kiln::complex;
using kiln::float16;
)kiln";

}  // namespace

std::string_view device_prelude() noexcept {
    return prelude;
}

}  // namespace kiln::detail
