// A minimal reader for 64-bit little-endian ELF files: enough to check that a compiled code
// object is for the expected machine, defines the expected symbols and, for AMDGPU, declares each
// kernel's arguments where the host packs them (the NT_AMDGPU_METADATA note, MessagePack).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln::test {

// One explicit or hidden argument of an AMDGPU kernel, as its metadata declares it.
struct AmdgpuKernelArg {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::string value_kind;  // "by_value", "global_buffer", "hidden_block_count_x", ...
};

struct AmdgpuKernel {
    std::string name;
    std::vector<AmdgpuKernelArg> args;
};

struct ElfInfo {
    std::uint16_t machine = 0;
    std::vector<std::string> symbols;
    std::vector<AmdgpuKernel> amdgpu_kernels;  // from the metadata note; empty elsewhere
};

struct MsgPackEntry;

// A decoded MessagePack value: only the types AMDGPU metadata uses (nil, booleans, integers,
// strings, arrays, maps).
struct MsgPackValue {
    enum class Type { nil, boolean, integer, string, array, map };
    Type type = Type::nil;
    bool boolean = false;
    std::int64_t integer = 0;
    std::string string;
    std::vector<MsgPackValue> array;
    std::vector<MsgPackEntry> map;

    // The value under string key `key` of a map, or nullptr.
    [[nodiscard]] const MsgPackValue* find(std::string_view key) const;
};

// One key-value pair of a MessagePack map.
struct MsgPackEntry {
    MsgPackValue key;
    MsgPackValue value;
};

inline const MsgPackValue* MsgPackValue::find(std::string_view key) const {
    for (const auto& entry : map) {
        if (entry.key.type == Type::string && entry.key.string == key) {
            return &entry.value;
        }
    }
    return nullptr;
}

namespace elf_detail {

template <class T>
T read(std::span<const char> bytes, std::size_t offset) {
    if (offset > bytes.size() || sizeof(T) > bytes.size() - offset) {
        throw std::runtime_error("ELF: read past the end of the image");
    }
    T value;
    std::memcpy(&value, bytes.data() + offset, sizeof(T));
    return value;
}

// Decodes MessagePack (big-endian) values one after another from a byte span.
class MsgPackReader {
public:
    explicit MsgPackReader(std::span<const char> bytes) : bytes_(bytes) {}

    MsgPackValue value() {
        const auto tag = static_cast<std::uint8_t>(take(1));
        MsgPackValue v;
        using Type = MsgPackValue::Type;
        if (tag <= 0x7f) {
            return integer(std::uint64_t{tag});
        }
        if (tag >= 0xe0) {
            return integer(signed_value(tag, 1));
        }
        if ((tag & 0xf0) == 0x80) {
            return map(tag & 0x0f);
        }
        if ((tag & 0xf0) == 0x90) {
            return array(tag & 0x0f);
        }
        if ((tag & 0xe0) == 0xa0) {
            return string(tag & 0x1f);
        }
        switch (tag) {
            case 0xc0:
                return v;
            case 0xc2:
            case 0xc3:
                v.type = Type::boolean;
                v.boolean = tag == 0xc3;
                return v;
            case 0xcc:
                return integer(take(1));
            case 0xcd:
                return integer(take(2));
            case 0xce:
                return integer(take(4));
            case 0xcf:
                return integer(take(8));
            case 0xd0:
                return integer(signed_value(take(1), 1));
            case 0xd1:
                return integer(signed_value(take(2), 2));
            case 0xd2:
                return integer(signed_value(take(4), 4));
            case 0xd3:
                return integer(signed_value(take(8), 8));
            case 0xd9:
                return string(take(1));
            case 0xda:
                return string(take(2));
            case 0xdb:
                return string(take(4));
            case 0xdc:
                return array(take(2));
            case 0xdd:
                return array(take(4));
            case 0xde:
                return map(take(2));
            case 0xdf:
                return map(take(4));
            default:
                throw std::runtime_error("MessagePack: unsupported type byte " +
                                         std::to_string(tag));
        }
    }

    [[nodiscard]] bool done() const { return at_ == bytes_.size(); }

private:
    // The next `n` bytes as a big-endian unsigned integer.
    std::uint64_t take(std::size_t n) {
        if (n > bytes_.size() - at_) {
            throw std::runtime_error("MessagePack: read past the end of the data");
        }
        std::uint64_t result = 0;
        for (std::size_t b = 0; b < n; ++b) {
            result = (result << 8U) | static_cast<std::uint8_t>(bytes_[at_++]);
        }
        return result;
    }
    // Two's complement `raw` of `bytes` bytes, sign-extended.
    static std::int64_t signed_value(std::uint64_t raw, std::size_t bytes) {
        const std::uint64_t sign = std::uint64_t{1} << (8 * bytes - 1);
        return static_cast<std::int64_t>((raw ^ sign) - sign);
    }
    static MsgPackValue integer(std::uint64_t n) { return integer(static_cast<std::int64_t>(n)); }
    static MsgPackValue integer(std::int64_t n) {
        MsgPackValue v;
        v.type = MsgPackValue::Type::integer;
        v.integer = n;
        return v;
    }
    MsgPackValue string(std::uint64_t length) {
        if (length > bytes_.size() - at_) {
            throw std::runtime_error("MessagePack: string runs past the end of the data");
        }
        MsgPackValue v;
        v.type = MsgPackValue::Type::string;
        v.string.assign(bytes_.data() + at_, length);
        at_ += length;
        return v;
    }
    MsgPackValue array(std::uint64_t count) {
        MsgPackValue v;
        v.type = MsgPackValue::Type::array;
        for (std::uint64_t e = 0; e < count; ++e) {
            v.array.push_back(value());
        }
        return v;
    }
    MsgPackValue map(std::uint64_t count) {
        MsgPackValue v;
        v.type = MsgPackValue::Type::map;
        for (std::uint64_t e = 0; e < count; ++e) {
            MsgPackValue key = value();
            v.map.push_back({std::move(key), value()});
        }
        return v;
    }

    std::span<const char> bytes_;
    std::size_t at_ = 0;
};

// The kernels of an AMDGPU metadata map: "amdhsa.kernels" -> [{".name", ".args": [...]}].
inline std::vector<AmdgpuKernel> amdgpu_kernels(const MsgPackValue& metadata) {
    const MsgPackValue* kernels = metadata.find("amdhsa.kernels");
    if (kernels == nullptr || kernels->type != MsgPackValue::Type::array) {
        throw std::runtime_error("AMDGPU metadata: no amdhsa.kernels list");
    }
    auto field = [](const MsgPackValue& map, std::string_view key, MsgPackValue::Type type) {
        const MsgPackValue* value = map.find(key);
        if (value == nullptr || value->type != type) {
            throw std::runtime_error("AMDGPU metadata: missing or mistyped " + std::string(key));
        }
        return value;
    };
    std::vector<AmdgpuKernel> result;
    for (const auto& kernel : kernels->array) {
        AmdgpuKernel k{field(kernel, ".name", MsgPackValue::Type::string)->string, {}};
        // A kernel without parameters may have no ".args" entry.
        if (const MsgPackValue* args = kernel.find(".args"); args != nullptr) {
            for (const auto& arg : args->array) {
                k.args.push_back({static_cast<std::uint64_t>(
                                      field(arg, ".offset", MsgPackValue::Type::integer)->integer),
                                  static_cast<std::uint64_t>(
                                      field(arg, ".size", MsgPackValue::Type::integer)->integer),
                                  field(arg, ".value_kind", MsgPackValue::Type::string)->string});
            }
        }
        result.push_back(std::move(k));
    }
    return result;
}

}  // namespace elf_detail

// Decodes one complete MessagePack value that fills `bytes`.
inline MsgPackValue read_msgpack(std::span<const char> bytes) {
    elf_detail::MsgPackReader reader(bytes);
    MsgPackValue value = reader.value();
    if (!reader.done()) {
        throw std::runtime_error("MessagePack: bytes left after the value");
    }
    return value;
}

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
    constexpr std::uint32_t symtab = 2;
    constexpr std::uint32_t note = 7;
    for (std::size_t s = 0; s < section_count; ++s) {
        const auto type = read<std::uint32_t>(bytes, section(s, 4));
        const auto offset = read<std::uint64_t>(bytes, section(s, 24));
        const auto size = read<std::uint64_t>(bytes, section(s, 32));
        if (type == symtab) {
            const auto strtab = read<std::uint32_t>(bytes, section(s, 40));
            const auto entry = read<std::uint64_t>(bytes, section(s, 56));
            const auto strings = read<std::uint64_t>(bytes, section(strtab, 24));
            for (std::uint64_t sym = offset; entry > 0 && sym + entry <= offset + size;
                 sym += entry) {
                const auto name = read<std::uint32_t>(bytes, sym);
                if (strings + name < bytes.size()) {
                    info.symbols.emplace_back(bytes.data() + strings + name);
                }
            }
        } else if (type == note) {
            // Records: namesz, descsz, type (4 bytes each), then the name and the descriptor,
            // each padded to the section's alignment (4 on AMDGPU, at least 4 by the ELF spec).
            const auto align =
                std::max<std::uint64_t>(4, read<std::uint64_t>(bytes, section(s, 48)));
            auto padded = [&](std::uint64_t n) { return (n + align - 1) / align * align; };
            for (std::uint64_t at = offset; at + 12 <= offset + size;) {
                const auto name_size = read<std::uint32_t>(bytes, at);
                const auto desc_size = read<std::uint32_t>(bytes, at + 4);
                const auto note_type = read<std::uint32_t>(bytes, at + 8);
                const std::uint64_t name_at = at + 12;
                const std::uint64_t desc_at = name_at + padded(name_size);
                if (desc_at + desc_size > bytes.size()) {
                    throw std::runtime_error("ELF: note runs past the end of the image");
                }
                const std::string owner(bytes.data() + name_at, name_size == 0 ? 0 : name_size - 1);
                constexpr std::uint32_t nt_amdgpu_metadata = 32;
                if (owner == "AMDGPU" && note_type == nt_amdgpu_metadata) {
                    info.amdgpu_kernels =
                        elf_detail::amdgpu_kernels(read_msgpack(bytes.subspan(desc_at, desc_size)));
                }
                at = desc_at + padded(desc_size);
            }
        }
    }
    return info;
}

// The (offset, size) of each explicit (not hidden_*) argument of an AMDGPU kernel, in order.
inline std::vector<std::pair<std::uint64_t, std::uint64_t>> explicit_args(
    const AmdgpuKernel& kernel) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> args;
    for (const auto& arg : kernel.args) {
        if (!arg.value_kind.starts_with("hidden_")) {
            args.emplace_back(arg.offset, arg.size);
        }
    }
    return args;
}

}  // namespace kiln::test
