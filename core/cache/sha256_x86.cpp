#include "sha256_x86.hpp"

#include "sha256_constants.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <cpuid.h>
#include <immintrin.h>

namespace kiln::detail {

bool sha_extensions_available() noexcept {
    unsigned a = 0;
    unsigned b = 0;
    unsigned c = 0;
    unsigned d = 0;
    if (__get_cpuid(1, &a, &b, &c, &d) == 0) {
        return false;
    }
    const bool ssse3 = (c & (1U << 9U)) != 0;
    const bool sse41 = (c & (1U << 19U)) != 0;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d) == 0) {
        return false;
    }
    const bool sha = (b & (1U << 29U)) != 0;
    return ssse3 && sse41 && sha;
}

namespace {

// NOLINTBEGIN(cppcoreguidelines-pro-type-reinterpret-cast): intrinsics take vector pointers
__attribute__((target("sha,ssse3,sse4.1"))) __m128i load_vector(const void* at) noexcept {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
}

__attribute__((target("sha,ssse3,sse4.1"))) void store_vector(void* at, __m128i value) noexcept {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(at), value);
}
// NOLINTEND(cppcoreguidelines-pro-type-reinterpret-cast)

}  // namespace

// The state lives in two vectors in the order the rounds instruction wants (ABEF and CDGH); each
// group of four rounds adds its constants to four message words, and the schedule's next words
// come from sha256msg1/msg2 over the last sixteen.
__attribute__((target("sha,ssse3,sse4.1"))) void compress_with_sha_extensions(
    std::array<std::uint32_t, 8>& state, const std::byte* blocks, std::size_t count) noexcept {
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    const __m128i dcba = _mm_shuffle_epi32(load_vector(state.data()), 0xB1);
    const __m128i hgfe = _mm_shuffle_epi32(load_vector(state.data() + 4), 0x1B);
    __m128i abef = _mm_alignr_epi8(dcba, hgfe, 8);
    __m128i cdgh = _mm_blend_epi16(hgfe, dcba, 0xF0);
    for (std::size_t block = 0; block < count; ++block, blocks += 64) {
        const __m128i abef_before = abef;
        const __m128i cdgh_before = cdgh;
        // NOLINTBEGIN(*-avoid-c-arrays,*-pro-bounds-constant-array-index): std::array drops the
        // vector type's attributes, and the unrolled loop's indices are constants.
        __m128i words[4];
#pragma GCC unroll 16
        for (std::size_t group = 0; group < 16; ++group) {
            __m128i& current = words[group % 4];
            if (group < 4) {
                current = _mm_shuffle_epi8(load_vector(blocks + 16 * group), byte_swap);
            } else {
                const __m128i& previous = words[(group + 3) % 4];
                const __m128i seven_back = _mm_alignr_epi8(previous, words[(group + 2) % 4], 4);
                current = _mm_sha256msg2_epu32(
                    _mm_add_epi32(_mm_sha256msg1_epu32(current, words[(group + 1) % 4]),
                                  seven_back),
                    previous);
            }
            __m128i message =
                _mm_add_epi32(current, load_vector(sha256_round_constants.data() + 4 * group));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, message);
            message = _mm_shuffle_epi32(message, 0x0E);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, message);
        }
        // NOLINTEND(*-avoid-c-arrays,*-pro-bounds-constant-array-index)
        abef = _mm_add_epi32(abef, abef_before);
        cdgh = _mm_add_epi32(cdgh, cdgh_before);
    }
    const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    store_vector(state.data(), _mm_blend_epi16(feba, dchg, 0xF0));
    store_vector(state.data() + 4, _mm_alignr_epi8(dchg, feba, 8));
}

}  // namespace kiln::detail

#else

namespace kiln::detail {

bool sha_extensions_available() noexcept {
    return false;
}

void compress_with_sha_extensions(std::array<std::uint32_t, 8>& /*state*/,
                                  const std::byte* /*blocks*/, std::size_t /*count*/) noexcept {}

}  // namespace kiln::detail

#endif
