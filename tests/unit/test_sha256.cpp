#include "core/compile/sha256.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace {

using kiln::detail::sha256;
using kiln::detail::sha256_hex;
using kiln::detail::to_hex;

// The example messages of FIPS 180-4 (NIST's "SHA-256 examples" and the long-message vectors).
TEST(Sha256, NistExampleVectors) {
    EXPECT_EQ(sha256_hex("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                         "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
              "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
    EXPECT_EQ(sha256_hex(std::string(1'000'000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Lengths around the padding boundaries: 55 bytes is the longest message padded within one
// block, 56 the shortest that needs a second. Expected values from coreutils' sha256sum:
//   head -c N /dev/zero | tr '\0' a | sha256sum
TEST(Sha256, PaddingBoundaries) {
    const std::array<std::pair<std::size_t, std::string_view>, 8> cases = {{
        {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
        {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
        {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
        {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
        {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
        {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
        {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
        {128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"},
    }};
    for (const auto& [length, expected] : cases) {
        EXPECT_EQ(sha256_hex(std::string(length, 'a')), expected) << length << " bytes";
    }
}

TEST(Sha256, BytesAndTextAgree) {
    const std::string text = "abc";
    EXPECT_EQ(to_hex(sha256(std::as_bytes(std::span(text)))), sha256_hex(text));
    EXPECT_EQ(to_hex(sha256({})), sha256_hex(""));
}

TEST(Sha256, HexHasTwoLowerCaseDigitsPerByte) {
    const std::array bytes = {std::byte{0x00}, std::byte{0x0f}, std::byte{0xa0}, std::byte{0xff}};
    EXPECT_EQ(to_hex(bytes), "000fa0ff");
    EXPECT_EQ(to_hex({}), "");
}

}  // namespace
