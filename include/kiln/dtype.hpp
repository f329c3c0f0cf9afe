/// @file
/// Element types of kiln arrays: NumPy's names, sizes, kinds, casting and promotion rules, and the
/// C type names that generated kernel source uses for each.
#pragma once

#include <kiln/float16.hpp>

#include <array>
#include <bit>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string_view>
#include <type_traits>

namespace kiln {

/// The element type of an array: the NumPy dtypes that CuPy supports.
enum class DType : std::uint8_t {
    bool_,      ///< bool, 1 byte
    int8,       ///< 8-bit signed integer
    int16,      ///< 16-bit signed integer
    int32,      ///< 32-bit signed integer
    int64,      ///< 64-bit signed integer
    uint8,      ///< 8-bit unsigned integer
    uint16,     ///< 16-bit unsigned integer
    uint32,     ///< 32-bit unsigned integer
    uint64,     ///< 64-bit unsigned integer
    float16,    ///< IEEE half precision (kiln::half)
    float32,    ///< IEEE single precision (float)
    float64,    ///< IEEE double precision (double)
    complex64,  ///< two float32 (`std::complex<float>`)
    complex128  ///< two float64 (`std::complex<double>`)
};

// CuPy-style spellings: kiln::float32 as cupy.float32. kiln::half is float16's element type.
inline constexpr DType bool_ = DType::bool_;            ///< cupy.bool_
inline constexpr DType int8 = DType::int8;              ///< cupy.int8
inline constexpr DType int16 = DType::int16;            ///< cupy.int16
inline constexpr DType int32 = DType::int32;            ///< cupy.int32
inline constexpr DType int64 = DType::int64;            ///< cupy.int64
inline constexpr DType uint8 = DType::uint8;            ///< cupy.uint8
inline constexpr DType uint16 = DType::uint16;          ///< cupy.uint16
inline constexpr DType uint32 = DType::uint32;          ///< cupy.uint32
inline constexpr DType uint64 = DType::uint64;          ///< cupy.uint64
inline constexpr DType float16 = DType::float16;        ///< cupy.float16
inline constexpr DType float32 = DType::float32;        ///< cupy.float32
inline constexpr DType float64 = DType::float64;        ///< cupy.float64
inline constexpr DType complex64 = DType::complex64;    ///< cupy.complex64
inline constexpr DType complex128 = DType::complex128;  ///< cupy.complex128

/// numpy.can_cast's casting levels, from the strictest.
enum class Casting : std::uint8_t { no, equiv, safe, same_kind, unsafe };

namespace detail {

struct DTypeTraits {
    std::string_view name;
    std::string_view c_type;
    std::size_t itemsize;
    std::size_t alignment;
    char kind;
};

// Indexed by the DType's value. Complex types are aligned to their full size, as CUDA's and
// HIP's complex types are on the device (NumPy aligns them to a component on the host).
inline constexpr std::array<DTypeTraits, 14> dtype_traits{{
    {"bool", "bool", 1, 1, 'b'},
    {"int8", "signed char", 1, 1, 'i'},
    {"int16", "short", 2, 2, 'i'},
    {"int32", "int", 4, 4, 'i'},
    {"int64", "long long", 8, 8, 'i'},
    {"uint8", "unsigned char", 1, 1, 'u'},
    {"uint16", "unsigned short", 2, 2, 'u'},
    {"uint32", "unsigned int", 4, 4, 'u'},
    {"uint64", "unsigned long long", 8, 8, 'u'},
    {"float16", "float16", 2, 2, 'f'},
    {"float32", "float", 4, 4, 'f'},
    {"float64", "double", 8, 8, 'f'},
    {"complex64", "complex<float>", 8, 8, 'c'},
    {"complex128", "complex<double>", 16, 16, 'c'},
}};

// Throws TypeError: `function` got a value outside the DType enumeration.
[[noreturn]] void throw_invalid_dtype(std::string_view function, DType dtype);
// Throws TypeError: `function` got a value outside the Casting enumeration.
[[noreturn]] void throw_invalid_casting(std::string_view function, Casting casting);

// The DType's index into the tables; throws when `function` got an invalid DType value.
constexpr std::size_t checked_index(DType dtype, std::string_view function) {
    const auto index = static_cast<std::size_t>(dtype);
    if (index >= dtype_traits.size()) {
        throw_invalid_dtype(function, dtype);
    }
    return index;
}

constexpr const DTypeTraits& traits(DType dtype, std::string_view function) {
    // NOLINTNEXTLINE(cppcoreguidelines-pro-bounds-constant-array-index): checked_index bounds it
    return dtype_traits[checked_index(dtype, function)];
}

// The size of the floating-point numbers a float or complex type is made of.
constexpr std::size_t component_size(const DTypeTraits& type) {
    return type.kind == 'c' ? type.itemsize / 2 : type.itemsize;
}

// NumPy's "safe" casting: every value of `from` is represented in `to`, except that 64-bit
// integers are allowed into float64 (and complex128), the widest floating type.
constexpr bool casts_safely(const DTypeTraits& from, const DTypeTraits& to) {
    if (from.kind == 'b') {
        return true;
    }
    switch (to.kind) {
        case 'u':
            return from.kind == 'u' && to.itemsize >= from.itemsize;
        case 'i':
            return (from.kind == 'i' && to.itemsize >= from.itemsize) ||
                   (from.kind == 'u' && to.itemsize > from.itemsize);
        case 'f':
        case 'c':
            if (from.kind == 'i' || from.kind == 'u') {
                return component_size(to) > from.itemsize || component_size(to) == 8;
            }
            return (from.kind == 'f' || (from.kind == 'c' && to.kind == 'c')) &&
                   component_size(to) >= component_size(from);
        default:
            return false;
    }
}

// NumPy's "same_kind": the kinds are ordered bool < unsigned < signed < float < complex and a
// cast may narrow within a kind or go up that order, never down it.
constexpr int kind_rank(char kind) {
    switch (kind) {
        case 'b':
            return 0;
        case 'u':
            return 1;
        case 'i':
            return 2;
        case 'f':
            return 3;
        default:
            return 4;
    }
}

// numpy.promote_types is the first type in this order that both arguments cast to safely.
inline constexpr std::array<DType, 14> promotion_order{
    DType::bool_,   DType::uint8,   DType::int8,      DType::uint16,    DType::int16,
    DType::uint32,  DType::int32,   DType::uint64,    DType::int64,     DType::float16,
    DType::float32, DType::float64, DType::complex64, DType::complex128};

inline constexpr auto promotion_table = [] {
    std::array<std::array<DType, 14>, 14> table{};
    for (std::size_t a = 0; a < dtype_traits.size(); ++a) {
        for (std::size_t b = 0; b < dtype_traits.size(); ++b) {
            for (const DType candidate : promotion_order) {
                const auto& target = dtype_traits.at(static_cast<std::size_t>(candidate));
                if (casts_safely(dtype_traits.at(a), target) &&
                    casts_safely(dtype_traits.at(b), target)) {
                    table.at(a).at(b) = candidate;
                    break;
                }
            }
        }
    }
    return table;
}();

}  // namespace detail

/// NumPy's name: "bool", "int8", ..., "complex128".
[[nodiscard]] constexpr std::string_view name(DType dtype) {
    return detail::traits(dtype, "name").name;
}

/// Bytes per element.
[[nodiscard]] constexpr std::size_t itemsize(DType dtype) {
    return detail::traits(dtype, "itemsize").itemsize;
}

/// The alignment kiln allocates with and kernels assume: the itemsize, so complex128 is 16.
[[nodiscard]] constexpr std::size_t alignment(DType dtype) {
    return detail::traits(dtype, "alignment").alignment;
}

/// NumPy's dtype.kind: 'b' bool, 'i' signed, 'u' unsigned, 'f' floating, 'c' complex.
[[nodiscard]] constexpr char kind(DType dtype) {
    return detail::traits(dtype, "kind").kind;
}

/// The element type's name in generated kernel source, spelled as CuPy's generated code spells
/// it, so kernel bodies written for CuPy compile unchanged.
[[nodiscard]] constexpr std::string_view c_type(DType dtype) {
    return detail::traits(dtype, "c_type").c_type;
}

/// The DType named by NumPy's name ("bool_" is accepted for "bool"). Throws TypeError otherwise.
[[nodiscard]] DType dtype_from_name(std::string_view text);

/// numpy.promote_types: the smallest type both arguments cast to safely.
[[nodiscard]] constexpr DType promote_types(DType a, DType b) {
    // NOLINTNEXTLINE(cppcoreguidelines-pro-bounds-constant-array-index): checked_index bounds it
    return detail::promotion_table[detail::checked_index(a, "promote_types")]
                                  [detail::checked_index(b, "promote_types")];
}

/// numpy.can_cast for dtypes: whether a cast from `from` to `to` is allowed at `casting`.
[[nodiscard]] constexpr bool can_cast(DType from, DType to, Casting casting = Casting::safe) {
    const auto& source = detail::traits(from, "can_cast");
    const auto& target = detail::traits(to, "can_cast");
    switch (casting) {
        case Casting::no:
        case Casting::equiv:
            return from == to;
        case Casting::safe:
            return detail::casts_safely(source, target);
        case Casting::same_kind:
            return detail::kind_rank(source.kind) <= detail::kind_rank(target.kind);
        case Casting::unsafe:
            return true;
    }
    detail::throw_invalid_casting("can_cast", casting);
}

namespace detail {

template <class T>
constexpr bool is_one_of_integers =
    std::is_same_v<T, signed char> || std::is_same_v<T, short> || std::is_same_v<T, int> ||
    std::is_same_v<T, long> || std::is_same_v<T, long long> || std::is_same_v<T, unsigned char> ||
    std::is_same_v<T, unsigned short> || std::is_same_v<T, unsigned int> ||
    std::is_same_v<T, unsigned long> || std::is_same_v<T, unsigned long long>;

// The DType of T, or the count of DTypes when T has none. The standard integer types map by
// size and signedness, so std::int64_t and long long both give int64 wherever they differ;
// plain char (signedness varies) and the character types have no DType.
template <class T>
constexpr std::size_t dtype_index_of() {
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, bool>) {
        return static_cast<std::size_t>(DType::bool_);
    } else if constexpr (is_one_of_integers<U>) {
        constexpr std::size_t log2_size = std::bit_width(sizeof(U)) - 1;
        return static_cast<std::size_t>(std::is_signed_v<U> ? DType::int8 : DType::uint8) +
               log2_size;
    } else if constexpr (std::is_same_v<U, half>) {
        return static_cast<std::size_t>(DType::float16);
    } else if constexpr (std::is_same_v<U, float>) {
        return static_cast<std::size_t>(DType::float32);
    } else if constexpr (std::is_same_v<U, double>) {
        return static_cast<std::size_t>(DType::float64);
    } else if constexpr (std::is_same_v<U, std::complex<float>>) {
        return static_cast<std::size_t>(DType::complex64);
    } else if constexpr (std::is_same_v<U, std::complex<double>>) {
        return static_cast<std::size_t>(DType::complex128);
    } else {
        return dtype_traits.size();
    }
}

}  // namespace detail

/// Whether T is an element type kiln arrays can hold.
template <class T>
concept has_dtype = (detail::dtype_index_of<T>() < detail::dtype_traits.size());

/// The DType whose elements are T: `dtype_of<float> == float32`. Other types do not compile.
template <class T>
inline constexpr DType dtype_of = [] {
    static_assert(has_dtype<T>,
                  "kiln::dtype_of<T>: T has no dtype; use bool, a signed or unsigned integer "
                  "type, kiln::half, float, double, std::complex<float> or std::complex<double>");
    return static_cast<DType>(detail::dtype_index_of<T>());
}();

/// Prints name(dtype).
std::ostream& operator<<(std::ostream& out, DType dtype);

}  // namespace kiln
