// A minimal reader for 64-bit little-endian ELF files: enough to check that a compiled code
// object is for the expected machine and defines the expected symbols.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace kiln::test {

struct ElfInfo {
    std::uint16_t machine = 0;
    std::vector<std::string> symbols;
};

namespace elf_detail {

template <class T>
T read(std::span<const char> bytes, std::size_t offset) {
    if (offset + sizeof(T) > bytes.size()) {
        throw std::runtime_error("ELF: read past the end of the image");
    }
    T value;
    std::memcpy(&value, bytes.data() + offset, sizeof(T));
    return value;
}

}  // namespace elf_detail

inline ElfInfo read_elf(std::span<const char> bytes) {
    using elf_detail::read;
    if (bytes.size() < 64 ||
        std::memcmp(bytes.data(),
                    "\x7f"
                    "ELF",
                    4) != 0 ||
        bytes[4] != 2) {
        throw std::runtime_error("not a 64-bit ELF image");
    }
    ElfInfo info;
    info.machine = read<std::uint16_t>(bytes, 18);
    const auto section_offset = read<std::uint64_t>(bytes, 40);
    const auto section_size = read<std::uint16_t>(bytes, 58);
    const auto section_count = read<std::uint16_t>(bytes, 60);
    auto section = [&](std::size_t index, std::size_t field) {
        return section_offset + index * section_size + field;
    };
    for (std::size_t s = 0; s < section_count; ++s) {
        constexpr std::uint32_t symtab = 2;
        if (read<std::uint32_t>(bytes, section(s, 4)) != symtab) {
            continue;
        }
        const auto offset = read<std::uint64_t>(bytes, section(s, 24));
        const auto size = read<std::uint64_t>(bytes, section(s, 32));
        const auto strtab = read<std::uint32_t>(bytes, section(s, 40));
        const auto entry = read<std::uint64_t>(bytes, section(s, 56));
        const auto strings = read<std::uint64_t>(bytes, section(strtab, 24));
        for (std::uint64_t sym = offset; entry > 0 && sym + entry <= offset + size; sym += entry) {
            const auto name = read<std::uint32_t>(bytes, sym);
            if (strings + name < bytes.size()) {
                info.symbols.emplace_back(bytes.data() + strings + name);
            }
        }
    }
    return info;
}

}  // namespace kiln::test
