#include "streaming_copy.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace kiln::detail {

#if defined(__x86_64__)

void streaming_copy(void* target, const void* source, std::size_t bytes) noexcept {
    auto* to = static_cast<std::byte*>(target);
    const auto* from = static_cast<const std::byte*>(source);
    // SSE2 is part of x86-64; its streaming stores need 16-byte-aligned targets.
    constexpr std::size_t vector = 16;
    const std::size_t misaligned = reinterpret_cast<std::uintptr_t>(to) % vector;
    const std::size_t head = std::min(bytes, misaligned == 0 ? 0 : vector - misaligned);
    std::memcpy(to, from, head);
    std::size_t done = head;
    for (; done + 4 * vector <= bytes; done += 4 * vector) {
        const auto* in = reinterpret_cast<const __m128i*>(from + done);
        auto* out = reinterpret_cast<__m128i*>(to + done);
        const __m128i a = _mm_loadu_si128(in);
        const __m128i b = _mm_loadu_si128(in + 1);
        const __m128i c = _mm_loadu_si128(in + 2);
        const __m128i d = _mm_loadu_si128(in + 3);
        _mm_stream_si128(out, a);
        _mm_stream_si128(out + 1, b);
        _mm_stream_si128(out + 2, c);
        _mm_stream_si128(out + 3, d);
    }
    std::memcpy(to + done, from + done, bytes - done);
    // Streaming stores are weakly ordered: make them visible before the caller says "done".
    _mm_sfence();
}

#else

void streaming_copy(void* target, const void* source, std::size_t bytes) noexcept {
    std::memcpy(target, source, bytes);
}

#endif

}  // namespace kiln::detail
