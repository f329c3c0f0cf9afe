// The CUDA dialect's types and device functions on the host (kiln/host_cuda.h includes it): the
// vector types, atomics (GCC's builtins, relaxed as CUDA's are; a compare-and-swap loop where they
// have no operation), the integer and conversion intrinsics, and the math functions CUDA has
// beyond C's, which <math.h> gives with their float and double overloads.
#ifndef KILN_HOST_CUDA_MATH_H
#define KILN_HOST_CUDA_MATH_H

#include <stdexcept>

#define KILN_CUDA_VECTORS(T, name, align2, align4)      \
    struct name##1 {                                    \
        T x;                                            \
    };                                                  \
    struct __attribute__((aligned(align2))) name##2 {   \
        T x, y;                                         \
    };                                                  \
    struct name##3 {                                    \
        T x, y, z;                                      \
    };                                                  \
    struct __attribute__((aligned(align4))) name##4 {   \
        T x, y, z, w;                                   \
    };                                                  \
    inline name##1 make_##name##1(T x) {                \
        return name##1 {x};                             \
    }                                                   \
    inline name##2 make_##name##2(T x, T y) {           \
        return name##2 {x, y};                          \
    }                                                   \
    inline name##3 make_##name##3(T x, T y, T z) {      \
        return name##3 {x, y, z};                       \
    }                                                   \
    inline name##4 make_##name##4(T x, T y, T z, T w) { \
        return name##4 {x, y, z, w};                    \
    }
KILN_CUDA_VECTORS(signed char, char, 2, 4)
KILN_CUDA_VECTORS(unsigned char, uchar, 2, 4)
KILN_CUDA_VECTORS(short, short, 4, 8)
KILN_CUDA_VECTORS(unsigned short, ushort, 4, 8)
KILN_CUDA_VECTORS(int, int, 8, 16)
KILN_CUDA_VECTORS(unsigned int, uint, 8, 16)
KILN_CUDA_VECTORS(long, long, 16, 16)
KILN_CUDA_VECTORS(unsigned long, ulong, 16, 16)
KILN_CUDA_VECTORS(long long, longlong, 16, 16)
KILN_CUDA_VECTORS(unsigned long long, ulonglong, 16, 16)
KILN_CUDA_VECTORS(float, float, 8, 16)
KILN_CUDA_VECTORS(double, double, 16, 16)
#undef KILN_CUDA_VECTORS

template <class T>
struct kiln_cuda_same {
    typedef T type;
};

// Atomics: relaxed, returning the value replaced.
template <class T, class F>
inline T kiln_cuda_atomic_update(T* address, F update) {
    T old;
    __atomic_load(address, &old, __ATOMIC_RELAXED);
    T desired;
    do {
        desired = update(old);
    } while (!__atomic_compare_exchange(address, &old, &desired, true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
    return old;
}
template <class T>
inline T atomicAdd(T* address, typename kiln_cuda_same<T>::type value) {
    if constexpr (std::is_integral<T>::value) {
        return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
    } else {
        return kiln_cuda_atomic_update(address, [&](T old) { return T(old + value); });
    }
}
template <class T>
inline T atomicSub(T* address, typename kiln_cuda_same<T>::type value) {
    return __atomic_fetch_sub(address, value, __ATOMIC_RELAXED);
}
template <class T>
inline T atomicExch(T* address, typename kiln_cuda_same<T>::type value) {
    T old;
    __atomic_exchange(address, &value, &old, __ATOMIC_RELAXED);
    return old;
}
template <class T>
inline T atomicMin(T* address, typename kiln_cuda_same<T>::type value) {
    return kiln_cuda_atomic_update(address, [&](T old) { return value < old ? value : old; });
}
template <class T>
inline T atomicMax(T* address, typename kiln_cuda_same<T>::type value) {
    return kiln_cuda_atomic_update(address, [&](T old) { return old < value ? value : old; });
}
template <class T>
inline T atomicAnd(T* address, typename kiln_cuda_same<T>::type value) {
    return __atomic_fetch_and(address, value, __ATOMIC_RELAXED);
}
template <class T>
inline T atomicOr(T* address, typename kiln_cuda_same<T>::type value) {
    return __atomic_fetch_or(address, value, __ATOMIC_RELAXED);
}
template <class T>
inline T atomicXor(T* address, typename kiln_cuda_same<T>::type value) {
    return __atomic_fetch_xor(address, value, __ATOMIC_RELAXED);
}
inline unsigned atomicInc(unsigned* address, unsigned limit) {
    return kiln_cuda_atomic_update(address,
                                   [&](unsigned old) { return old >= limit ? 0u : old + 1; });
}
inline unsigned atomicDec(unsigned* address, unsigned limit) {
    return kiln_cuda_atomic_update(
        address, [&](unsigned old) { return old == 0 || old > limit ? limit : old - 1; });
}
template <class T>
inline T atomicCAS(T* address, typename kiln_cuda_same<T>::type compare,
                   typename kiln_cuda_same<T>::type value) {
    __atomic_compare_exchange(address, &compare, &value, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return compare;
}
#define KILN_CUDA_ATOMIC_SCOPES(name)                 \
    template <class T, class... A>                    \
    inline T name##_block(T* address, A... values) {  \
        return name(address, values...);              \
    }                                                 \
    template <class T, class... A>                    \
    inline T name##_system(T* address, A... values) { \
        return name(address, values...);              \
    }
KILN_CUDA_ATOMIC_SCOPES(atomicAdd)
KILN_CUDA_ATOMIC_SCOPES(atomicSub)
KILN_CUDA_ATOMIC_SCOPES(atomicExch)
KILN_CUDA_ATOMIC_SCOPES(atomicMin)
KILN_CUDA_ATOMIC_SCOPES(atomicMax)
KILN_CUDA_ATOMIC_SCOPES(atomicAnd)
KILN_CUDA_ATOMIC_SCOPES(atomicOr)
KILN_CUDA_ATOMIC_SCOPES(atomicXor)
KILN_CUDA_ATOMIC_SCOPES(atomicCAS)
#undef KILN_CUDA_ATOMIC_SCOPES

inline void __threadfence() {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __threadfence_system() {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __threadfence_block() {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

// Loads and stores with cache hints are plain ones.
template <class T>
inline T __ldg(const T* p) {
    return *p;
}
template <class T>
inline T __ldcg(const T* p) {
    return *p;
}
template <class T>
inline T __ldca(const T* p) {
    return *p;
}
template <class T>
inline T __ldcs(const T* p) {
    return *p;
}
template <class T>
inline T __ldlu(const T* p) {
    return *p;
}
template <class T>
inline T __ldcv(const T* p) {
    return *p;
}
template <class T>
inline void __stwb(T* p, T v) {
    *p = v;
}
template <class T>
inline void __stcg(T* p, T v) {
    *p = v;
}
template <class T>
inline void __stcs(T* p, T v) {
    *p = v;
}
template <class T>
inline void __stwt(T* p, T v) {
    *p = v;
}

#if defined(__x86_64__)
inline long long clock64() {
    return (long long)__builtin_ia32_rdtsc();
}
#else
#include <time.h>
inline long long clock64() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}
#endif
inline void __nanosleep(unsigned) {}
[[noreturn]] inline void __trap() {
    throw std::runtime_error("the kernel called __trap()");
}

// Integer intrinsics.
inline int __popc(unsigned x) {
    return __builtin_popcount(x);
}
inline int __popcll(unsigned long long x) {
    return __builtin_popcountll(x);
}
inline int __clz(int x) {
    return x == 0 ? 32 : __builtin_clz((unsigned)x);
}
inline int __clzll(long long x) {
    return x == 0 ? 64 : __builtin_clzll((unsigned long long)x);
}
inline int __ffs(int x) {
    return __builtin_ffs(x);
}
inline int __ffsll(long long x) {
    return __builtin_ffsll(x);
}
inline unsigned __brev(unsigned x) {
    unsigned r = 0;
    for (int i = 0; i < 32; ++i, x >>= 1)
        r = (r << 1) | (x & 1u);
    return r;
}
inline unsigned long long __brevll(unsigned long long x) {
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
    const unsigned long long bytes = ((unsigned long long)y << 32) | x;
    unsigned r = 0;
    for (int i = 0; i < 4; ++i)
        r |= (unsigned)((bytes >> (8 * ((s >> (4 * i)) & 7u))) & 0xffu) << (8 * i);
    return r;
}
inline int __mul24(int x, int y) {
    return (int)((unsigned)x << 8) / 256 * ((int)((unsigned)y << 8) / 256);
}
inline unsigned __umul24(unsigned x, unsigned y) {
    return (x & 0xffffffu) * (y & 0xffffffu);
}
inline int __mulhi(int x, int y) {
    return (int)(((long long)x * y) >> 32);
}
inline unsigned __umulhi(unsigned x, unsigned y) {
    return (unsigned)(((unsigned long long)x * y) >> 32);
}
inline long long __mul64hi(long long x, long long y) {
    return (long long)(((__int128)x * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
    return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
inline unsigned __sad(int x, int y, unsigned z) {
    return z + (unsigned)(x > y ? x - y : y - x);
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) {
    return z + (x > y ? x - y : y - x);
}
inline int __hadd(int x, int y) {
    return (int)(((long long)x + y) >> 1);
}
inline int __rhadd(int x, int y) {
    return (int)(((long long)x + y + 1) >> 1);
}
inline unsigned __uhadd(unsigned x, unsigned y) {
    return (unsigned)(((unsigned long long)x + y) >> 1);
}
inline unsigned __urhadd(unsigned x, unsigned y) {
    return (unsigned)(((unsigned long long)x + y + 1) >> 1);
}
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
    return (unsigned)((((unsigned long long)hi << 32 | lo) << (shift & 31)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
    return (unsigned)((((unsigned long long)hi << 32 | lo) << (shift < 32 ? shift : 32)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
    return (unsigned)(((unsigned long long)hi << 32 | lo) >> (shift & 31));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
    return (unsigned)(((unsigned long long)hi << 32 | lo) >> (shift < 32 ? shift : 32));
}
inline unsigned umin(unsigned a, unsigned b) {
    return a < b ? a : b;
}
inline unsigned umax(unsigned a, unsigned b) {
    return a < b ? b : a;
}
inline long long llmin(long long a, long long b) {
    return a < b ? a : b;
}
inline long long llmax(long long a, long long b) {
    return a < b ? b : a;
}
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) {
    return a < b ? a : b;
}
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) {
    return a < b ? b : a;
}

// Reinterpretations and conversions; _rn rounds to nearest even (the default rounding mode), _rz
// toward zero, _ru up, _rd down.
template <class To, class From>
inline To kiln_cuda_bit_cast(From from) {
    To to;
    memcpy(&to, &from, sizeof(To));
    return to;
}
inline int __float_as_int(float x) {
    return kiln_cuda_bit_cast<int>(x);
}
inline unsigned __float_as_uint(float x) {
    return kiln_cuda_bit_cast<unsigned>(x);
}
inline float __int_as_float(int x) {
    return kiln_cuda_bit_cast<float>(x);
}
inline float __uint_as_float(unsigned x) {
    return kiln_cuda_bit_cast<float>(x);
}
inline long long __double_as_longlong(double x) {
    return kiln_cuda_bit_cast<long long>(x);
}
inline double __longlong_as_double(long long x) {
    return kiln_cuda_bit_cast<double>(x);
}
inline int __double2hiint(double x) {
    return (int)(__double_as_longlong(x) >> 32);
}
inline int __double2loint(double x) {
    return (int)__double_as_longlong(x);
}
inline double __hiloint2double(int hi, int lo) {
    return __longlong_as_double(
        (long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo));
}
#define KILN_CUDA_CONVERSIONS(name, From, To) \
    inline To name##_rn(From x) {             \
        return (To)nearbyint(x);              \
    }                                         \
    inline To name##_rz(From x) {             \
        return (To)trunc(x);                  \
    }                                         \
    inline To name##_ru(From x) {             \
        return (To)ceil(x);                   \
    }                                         \
    inline To name##_rd(From x) {             \
        return (To)floor(x);                  \
    }
KILN_CUDA_CONVERSIONS(__float2int, float, int)
KILN_CUDA_CONVERSIONS(__float2uint, float, unsigned)
KILN_CUDA_CONVERSIONS(__float2ll, float, long long)
KILN_CUDA_CONVERSIONS(__float2ull, float, unsigned long long)
KILN_CUDA_CONVERSIONS(__double2int, double, int)
KILN_CUDA_CONVERSIONS(__double2uint, double, unsigned)
KILN_CUDA_CONVERSIONS(__double2ll, double, long long)
KILN_CUDA_CONVERSIONS(__double2ull, double, unsigned long long)
#undef KILN_CUDA_CONVERSIONS
inline float __int2float_rn(int x) {
    return (float)x;
}
inline float __uint2float_rn(unsigned x) {
    return (float)x;
}
inline float __ll2float_rn(long long x) {
    return (float)x;
}
inline float __ull2float_rn(unsigned long long x) {
    return (float)x;
}
inline double __int2double_rn(int x) {
    return (double)x;
}
inline double __uint2double_rn(unsigned x) {
    return (double)x;
}
inline double __ll2double_rn(long long x) {
    return (double)x;
}
inline double __ull2double_rn(unsigned long long x) {
    return (double)x;
}
inline float __double2float_rn(double x) {
    return (float)x;
}

// Math beyond C's. The fast intrinsics (__expf...) are the accurate functions here.
inline float rsqrtf(float x) {
    return 1.0f / sqrtf(x);
}
inline double rsqrt(double x) {
    return 1.0 / sqrt(x);
}
inline float rcbrtf(float x) {
    return 1.0f / cbrtf(x);
}
inline double rcbrt(double x) {
    return 1.0 / cbrt(x);
}
inline float sinpif(float x) {
    return (float)sin(M_PI * (double)x);
}
inline double sinpi(double x) {
    return sin(M_PI * x);
}
inline float cospif(float x) {
    return (float)cos(M_PI * (double)x);
}
inline double cospi(double x) {
    return cos(M_PI * x);
}
inline void sincospif(float x, float* s, float* c) {
    *s = sinpif(x);
    *c = cospif(x);
}
inline void sincospi(double x, double* s, double* c) {
    *s = sinpi(x);
    *c = cospi(x);
}
inline float normcdff(float x) {
    return 0.5f * erfcf(-x * (float)M_SQRT1_2);
}
inline double normcdf(double x) {
    return 0.5 * erfc(-x * M_SQRT1_2);
}
// erf's inverse: an initial guess refined by Newton's method on erf.
inline double erfinv(double y) {
    if (y <= -1.0 || y >= 1.0)
        return y == -1.0 ? -HUGE_VAL : y == 1.0 ? HUGE_VAL : NAN;
    const double w = -log((1.0 - y) * (1.0 + y));
    const double t = 2.0 / (M_PI * 0.147) - w / 2;
    double x = copysign(sqrt(sqrt(t * t + w / 0.147) - t), y);
    for (int i = 0; i < 3; ++i)
        x -= (erf(x) - y) / (M_2_SQRTPI * exp(-x * x));
    return x;
}
inline float erfinvf(float y) {
    return (float)erfinv(y);
}
inline double erfcinv(double y) {
    return erfinv(1.0 - y);
}
inline float erfcinvf(float y) {
    return (float)erfinv(1.0 - (double)y);
}
inline double normcdfinv(double y) {
    return -M_SQRT2 * erfcinv(2.0 * y);
}
inline float normcdfinvf(float y) {
    return (float)normcdfinv(y);
}
inline float rhypotf(float x, float y) {
    return 1.0f / hypotf(x, y);
}
inline double rhypot(double x, double y) {
    return 1.0 / hypot(x, y);
}
inline float norm3df(float a, float b, float c) {
    return sqrtf(a * a + b * b + c * c);
}
inline double norm3d(double a, double b, double c) {
    return sqrt(a * a + b * b + c * c);
}
inline float rnorm3df(float a, float b, float c) {
    return 1.0f / norm3df(a, b, c);
}
inline double rnorm3d(double a, double b, double c) {
    return 1.0 / norm3d(a, b, c);
}
inline float norm4df(float a, float b, float c, float d) {
    return sqrtf(a * a + b * b + c * c + d * d);
}
inline double norm4d(double a, double b, double c, double d) {
    return sqrt(a * a + b * b + c * c + d * d);
}
inline float fdividef(float x, float y) {
    return x / y;
}
inline float __fdividef(float x, float y) {
    return x / y;
}
inline double fdivide(double x, double y) {
    return x / y;
}
inline float __saturatef(float x) {
    return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
}
inline float __expf(float x) {
    return expf(x);
}
inline float __exp10f(float x) {
    return exp10f(x);
}
inline float __logf(float x) {
    return logf(x);
}
inline float __log2f(float x) {
    return log2f(x);
}
inline float __log10f(float x) {
    return log10f(x);
}
inline float __powf(float x, float y) {
    return powf(x, y);
}
inline float __sinf(float x) {
    return sinf(x);
}
inline float __cosf(float x) {
    return cosf(x);
}
inline float __tanf(float x) {
    return tanf(x);
}
inline void __sincosf(float x, float* s, float* c) {
    sincosf(x, s, c);
}
// Arithmetic in the default rounding mode only: the directed modes are not provided.
#define KILN_CUDA_ROUNDED(name, T, op) \
    inline T name##_rn(T x, T y) {     \
        return x op y;                 \
    }
KILN_CUDA_ROUNDED(__fadd, float, +)
KILN_CUDA_ROUNDED(__fsub, float, -)
KILN_CUDA_ROUNDED(__fmul, float, *)
KILN_CUDA_ROUNDED(__fdiv, float, /)
KILN_CUDA_ROUNDED(__dadd, double, +)
KILN_CUDA_ROUNDED(__dsub, double, -)
KILN_CUDA_ROUNDED(__dmul, double, *)
KILN_CUDA_ROUNDED(__ddiv, double, /)
#undef KILN_CUDA_ROUNDED
inline float __fmaf_rn(float x, float y, float z) {
    return fmaf(x, y, z);
}
inline double __fma_rn(double x, double y, double z) {
    return fma(x, y, z);
}
inline float __fsqrt_rn(float x) {
    return sqrtf(x);
}
inline double __dsqrt_rn(double x) {
    return sqrt(x);
}
inline float __frcp_rn(float x) {
    return 1.0f / x;
}
inline double __drcp_rn(double x) {
    return 1.0 / x;
}
inline float __frsqrt_rn(float x) {
    return 1.0f / sqrtf(x);
}

#endif
