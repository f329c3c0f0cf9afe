// HIPRTC 5.2 has no <limits>, and neither compiler predefines INT64_MAX, NAN or INFINITY (nor
// GCC's __INT_MAX__ family, under NVRTC). Floating-point limits are exact hexadecimal literals;
// infinity and NaN are bit patterns, since no arithmetic yields them in a constant expression.
// The constant members are enumerators: NVRTC gives every static constexpr data member device
// storage, and a module with globals loads several times slower (measured on the H100).
#ifndef KILN_LIMITS_H
#define KILN_LIMITS_H

namespace kiln {

// std::numeric_limits's values for device code, as constant expressions.
template <class T>
struct numeric_limits {
    enum : bool { is_specialized = false };
};

namespace detail {

template <class T, T Min, T Max, int Digits>
struct integer_limits {
    enum : bool { is_specialized = true };
    enum : bool { is_integer = true };
    enum : bool { is_signed = Min < T(0) };
    enum : bool { has_infinity = false };
    enum : int { digits = Digits };
    __host__ __device__ static constexpr T min() { return Min; }
    __host__ __device__ static constexpr T lowest() { return Min; }
    __host__ __device__ static constexpr T max() { return Max; }
};

// Unsigned: every value bit counts. Signed: all but the sign bit, two's complement.
template <class T>
struct unsigned_limits : integer_limits<T, T(0), T(-1), int(sizeof(T)) * 8> {};
template <class T, T Max>
struct signed_limits : integer_limits<T, T(-Max - 1), Max, int(sizeof(T)) * 8 - 1> {};

}  // namespace detail

template <>
struct numeric_limits<bool> : detail::integer_limits<bool, false, true, 1> {};
// char is signed or unsigned as the host's ABI says (unsigned on AArch64).
template <>
struct numeric_limits<char>
    : detail::integer_limits<char, (char(-1) < char(0) ? char(-128) : char(0)),
                             (char(-1) < char(0) ? char(127) : char(255)),
                             (char(-1) < char(0) ? 7 : 8)> {};
template <>
struct numeric_limits<signed char> : detail::signed_limits<signed char, 127> {};
template <>
struct numeric_limits<short> : detail::signed_limits<short, 32767> {};
template <>
struct numeric_limits<int> : detail::signed_limits<int, 2147483647> {};
template <>
struct numeric_limits<long>
    : detail::signed_limits<long,
                            (sizeof(long) == 8 ? long(9223372036854775807LL) : long(2147483647))> {
};
template <>
struct numeric_limits<long long> : detail::signed_limits<long long, 9223372036854775807LL> {};
template <>
struct numeric_limits<unsigned char> : detail::unsigned_limits<unsigned char> {};
template <>
struct numeric_limits<unsigned short> : detail::unsigned_limits<unsigned short> {};
template <>
struct numeric_limits<unsigned int> : detail::unsigned_limits<unsigned int> {};
template <>
struct numeric_limits<unsigned long> : detail::unsigned_limits<unsigned long> {};
template <>
struct numeric_limits<unsigned long long> : detail::unsigned_limits<unsigned long long> {};

template <>
struct numeric_limits<float> {
    enum : bool { is_specialized = true };
    enum : bool { is_integer = false };
    enum : bool { is_signed = true };
    enum : bool { has_infinity = true };
    enum : int { digits = 24 };
    __host__ __device__ static constexpr float min() { return 0x1p-126F; }
    __host__ __device__ static constexpr float lowest() { return -0x1.fffffep+127F; }
    __host__ __device__ static constexpr float max() { return 0x1.fffffep+127F; }
    __host__ __device__ static constexpr float epsilon() { return 0x1p-23F; }
    __host__ __device__ static constexpr float denorm_min() { return 0x1p-149F; }
    __host__ __device__ static constexpr float infinity() {
        return __builtin_bit_cast(float, 0x7f800000U);
    }
    __host__ __device__ static constexpr float quiet_NaN() {
        return __builtin_bit_cast(float, 0x7fc00000U);
    }
};

template <>
struct numeric_limits<double> {
    enum : bool { is_specialized = true };
    enum : bool { is_integer = false };
    enum : bool { is_signed = true };
    enum : bool { has_infinity = true };
    enum : int { digits = 53 };
    __host__ __device__ static constexpr double min() { return 0x1p-1022; }
    __host__ __device__ static constexpr double lowest() { return -0x1.fffffffffffffp+1023; }
    __host__ __device__ static constexpr double max() { return 0x1.fffffffffffffp+1023; }
    __host__ __device__ static constexpr double epsilon() { return 0x1p-52; }
    __host__ __device__ static constexpr double denorm_min() { return 0x1p-1074; }
    __host__ __device__ static constexpr double infinity() {
        return __builtin_bit_cast(double, 0x7ff0000000000000ULL);
    }
    __host__ __device__ static constexpr double quiet_NaN() {
        return __builtin_bit_cast(double, 0x7ff8000000000000ULL);
    }
};

}  // namespace kiln

#endif
