#include "device_header_texts.hpp"

namespace kiln::detail::header_text {

namespace {

// Generated kernels must compile where cuda_fp16.h is not installed, so kiln defines its own type.
constexpr std::string_view text = R"kiln(#ifndef KILN_FLOAT16_H
#define KILN_FLOAT16_H

namespace kiln {

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

#endif
)kiln";

}  // namespace

std::string_view float16_h() noexcept {
    return text;
}

}  // namespace kiln::detail::header_text
