// The host dialect's prelude, included before everything else (the host compiler's -include):
// CUDA's function qualifiers become nothing, the C math library gives the overloads CUDA's math
// functions have, and KILN_HOST_KERNEL exports a kernel body the way libkiln calls it
// (kiln/host_abi.h, the host kernel ABI): a descriptor of its parameters and an entry point that
// runs a range of the launch's blocks.
#ifndef KILN_HOST_H
#define KILN_HOST_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <kiln/host_abi.h>

#include <type_traits>
#include <utility>

// glibc's vector math library (libmvec): declared with GCC's simd attribute, as glibc's own
// headers do only under -ffast-math, loops over these functions vectorise into calls of its 4-
// and 8-wide variants (softplus of 1e7 float32 on one thread: 236 ms -> 24 ms). They are within
// 4 ulp, where the scalar ones are within 1 or 2, as CUDA's are. libkiln defines
// KILN_HOST_VECTOR_MATH and links libmvec where glibc has them all (x86-64, glibc 2.35 and later).
#ifdef KILN_HOST_VECTOR_MATH
#define KILN_VECTOR_MATH(name, ...) \
    extern "C" __attribute__((simd("notinbranch"))) double name(__VA_ARGS__) noexcept;
#define KILN_VECTOR_MATHF(name, ...) \
    extern "C" __attribute__((simd("notinbranch"))) float name(__VA_ARGS__) noexcept;
#define KILN_VECTOR_MATH_1(name) KILN_VECTOR_MATH(name, double) KILN_VECTOR_MATHF(name##f, float)
#define KILN_VECTOR_MATH_2(name) \
    KILN_VECTOR_MATH(name, double, double) KILN_VECTOR_MATHF(name##f, float, float)
// Kept by hand: clang-format reads the invocations as one statement.
// clang-format off
KILN_VECTOR_MATH_1(acos) KILN_VECTOR_MATH_1(acosh) KILN_VECTOR_MATH_1(asin)
KILN_VECTOR_MATH_1(asinh) KILN_VECTOR_MATH_1(atan) KILN_VECTOR_MATH_1(atanh)
KILN_VECTOR_MATH_1(cbrt) KILN_VECTOR_MATH_1(cos) KILN_VECTOR_MATH_1(cosh)
KILN_VECTOR_MATH_1(erf) KILN_VECTOR_MATH_1(erfc) KILN_VECTOR_MATH_1(exp)
KILN_VECTOR_MATH_1(exp10) KILN_VECTOR_MATH_1(exp2) KILN_VECTOR_MATH_1(expm1)
KILN_VECTOR_MATH_1(log) KILN_VECTOR_MATH_1(log10) KILN_VECTOR_MATH_1(log1p)
KILN_VECTOR_MATH_1(log2) KILN_VECTOR_MATH_1(sin) KILN_VECTOR_MATH_1(sinh)
KILN_VECTOR_MATH_1(tan) KILN_VECTOR_MATH_1(tanh)
KILN_VECTOR_MATH_2(atan2) KILN_VECTOR_MATH_2(hypot) KILN_VECTOR_MATH_2(pow)
// clang-format on
#undef KILN_VECTOR_MATH_2
#undef KILN_VECTOR_MATH_1
#undef KILN_VECTOR_MATHF
#undef KILN_VECTOR_MATH
#endif

#define KILN_HOST 1
#define __device__
#define __host__
#define __global__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __restrict__ __restrict
    // No __noinline__: libstdc++ writes __attribute__((__noinline__)), which that macro would
    // break.

    // CUDA's min and max: of the arguments' common type; for floating point, fmin and fmax, which
    // return the other argument when one is NaN and order -0 before +0. Written as selects rather
    // than calls of the C library's fmin and fmax, which GCC does not inline, so that loops over
    // them vectorise.
    template <class A, class B, class C = decltype(true ? A() : B())>
    inline C min(A a, B b) {
    if constexpr (std::is_floating_point<C>::value) {
        const C x = C(a);
        const C y = C(b);
        return y < x || x != x || (y == x && signbit(y)) ? y : x;
    } else {
        return C(b) < C(a) ? C(b) : C(a);
    }
}
template <class A, class B, class C = decltype(true ? A() : B())>
inline C max(A a, B b) {
    if constexpr (std::is_floating_point<C>::value) {
        const C x = C(a);
        const C y = C(b);
        return x < y || x != x || (y == x && !signbit(y)) ? y : x;
    } else {
        return C(a) < C(b) ? C(b) : C(a);
    }
}

template <class Body, Body body>
struct kiln_host_entry;

template <class... P, void (*Body)(const kiln_host_grid&, P...)>
struct kiln_host_entry<void (*)(const kiln_host_grid&, P...), Body> {
    static constexpr unsigned count = sizeof...(P);
    static constexpr unsigned sizes[sizeof...(P) + 1] = {unsigned(sizeof(P))..., 0u};
    static constexpr unsigned alignments[sizeof...(P) + 1] = {unsigned(alignof(P))..., 0u};
    template <size_t... I>
    static void call(void* const* args, const kiln_host_grid& grid, std::index_sequence<I...>) {
        Body(grid, *static_cast<P*>(args[I])...);
    }
    static void entry(void* const* args, const kiln_host_grid* grid) {
        call(args, *grid, std::index_sequence_for<P...>());
    }
};

#define KILN_HOST_KERNEL(name, body)                                           \
    extern "C" const kiln_host_kernel KILN_HOST_KERNEL_SYMBOL(name) = {        \
        KILN_HOST_ABI_VERSION, kiln_host_entry<decltype(&body), &body>::count, \
        kiln_host_entry<decltype(&body), &body>::sizes,                        \
        kiln_host_entry<decltype(&body), &body>::alignments,                   \
        &kiln_host_entry<decltype(&body), &body>::entry};

#endif
