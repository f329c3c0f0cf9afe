// Generated kernels must compile where cuda_fp16.h is not installed, so kiln defines its own type.
// HIP's clang and host compilers with _Float16 (GCC 12, clang 15) convert through it; older host
// compilers (clang 14 on x86) round in software, from double so that a double rounds only once.
#ifndef KILN_FLOAT16_H
#define KILN_FLOAT16_H

namespace kiln {

#if defined(KILN_HOST) && !defined(__FLT16_MAX__)
#define KILN_SOFTWARE_FLOAT16
namespace detail {
inline unsigned short half_from_double(double d) {
    unsigned long long b;
    memcpy(&b, &d, sizeof b);
    const unsigned short sign = (unsigned short)((b >> 48) & 0x8000u);
    const int exponent = (int)((b >> 52) & 0x7ff);
    const unsigned long long mantissa = b & 0xfffffffffffffULL;
    if (exponent == 0x7ff) {
        return sign | 0x7c00u | (mantissa != 0 ? 0x200u : 0u);
    }
    const int e = exponent - 1008;  // the binary16 exponent field
    if (e >= 31) {
        return sign | 0x7c00u;
    }
    if (exponent == 0) {
        return sign;
    }
    // The 53-bit significand, shifted to binary16's 11 bits (fewer below its normal range).
    const unsigned long long m = mantissa | (1ULL << 52);
    const int shift = e <= 0 ? 43 - e : 42;
    if (shift > 63) {
        return sign;
    }
    unsigned long long kept = m >> shift;
    const unsigned long long rest = m & ((1ULL << shift) - 1);
    const unsigned long long half = 1ULL << (shift - 1);
    kept += (rest > half || (rest == half && (kept & 1))) ? 1 : 0;
    // A carry out of the significand steps the exponent up, to infinity at the top.
    return sign | (unsigned short)(e <= 0 ? kept : ((unsigned long long)e << 10) + kept - 0x400);
}
inline float half_to_float(unsigned short h) {
    const unsigned e = (h >> 10) & 0x1fu;
    const unsigned m = h & 0x3ffu;
    float magnitude;
    if (e == 0) {
        magnitude = (float)m * 0x1p-24f;
    } else {
        const unsigned bits = e == 0x1f ? 0x7f800000u | (m << 13) : ((e + 112) << 23) | (m << 13);
        memcpy(&magnitude, &bits, sizeof magnitude);
    }
    return (h & 0x8000u) != 0 ? -magnitude : magnitude;
}
}  // namespace detail
#endif

// IEEE binary16, converted with the hardware's round-to-nearest-even.
struct float16 {
    unsigned short bits;
    __device__ float16() : bits(0) {}
#if defined(KILN_SOFTWARE_FLOAT16)
    float16(float f) : bits(detail::half_from_double(f)) {}
    float16(double d) : bits(detail::half_from_double(d)) {}
    operator float() const {
        return detail::half_to_float(bits);
    }
#elif defined(__HIPCC_RTC__) || defined(__HIP__) || defined(KILN_HOST)
    __device__ float16(float f)
        : bits(__builtin_bit_cast(unsigned short, static_cast<_Float16>(f))) {}
    __device__ float16(double d)
        : bits(__builtin_bit_cast(unsigned short, static_cast<_Float16>(d))) {}
    __device__ operator float() const {
        return static_cast<float>(__builtin_bit_cast(_Float16, bits));
    }
#else
    __device__ float16(float f) {
        asm("cvt.rn.f16.f32 %0, %1;" : "=h"(bits) : "f"(f));
    }
    __device__ float16(double d) {
        asm("cvt.rn.f16.f64 %0, %1;" : "=h"(bits) : "d"(d));
    }
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

#endif
