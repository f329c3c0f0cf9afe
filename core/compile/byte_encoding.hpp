// The byte encoding shared by compile keys and cache files: integers little-endian, and every
// string or byte run preceded by its 8-byte length, so that different lists of fields never
// encode to the same bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace kiln::detail {

using Bytes = std::vector<std::byte>;

inline void append_integer(Bytes& out, std::uint64_t value, int size) {
    for (int i = 0; i < size; ++i) {
        out.push_back(static_cast<std::byte>(value & 0xffU));
        value >>= 8U;
    }
}

inline void append_run(Bytes& out, std::span<const std::byte> bytes) {
    append_integer(out, bytes.size(), 8);
    out.insert(out.end(), bytes.begin(), bytes.end());
}

inline void append_run(Bytes& out, std::string_view text) {
    append_run(out, std::as_bytes(std::span(text)));
}

}  // namespace kiln::detail
