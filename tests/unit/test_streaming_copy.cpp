// streaming_copy against the bytes it was given: every target alignment and length around the
// 64-byte loop's edges, with the bytes beside the target left alone.
#include "core/array/streaming_copy.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

TEST(StreamingCopy, CopiesEveryAlignmentAndLengthExactly) {
    constexpr std::size_t guard = 32;
    std::vector<std::uint8_t> source(4096 + 64);
    for (std::size_t i = 0; i < source.size(); ++i) {
        source[i] = static_cast<std::uint8_t>((i * 131 + 7) % 251);
    }
    for (std::size_t offset = 0; offset < 16; ++offset) {
        for (const std::size_t bytes : {0UL, 1UL, 15UL, 16UL, 63UL, 64UL, 65UL, 127UL, 4096UL}) {
            std::vector<std::uint8_t> target(bytes + offset + 2 * guard, 0xEE);
            kiln::detail::streaming_copy(target.data() + guard + offset, source.data() + offset,
                                         bytes);
            for (std::size_t i = 0; i < target.size(); ++i) {
                const bool inside = i >= guard + offset && i < guard + offset + bytes;
                const std::uint8_t expected = inside ? source[i - guard] : 0xEE;
                ASSERT_EQ(target[i], expected)
                    << "byte " << i << " of a copy of " << bytes << " bytes at offset " << offset;
            }
        }
    }
}

}  // namespace
