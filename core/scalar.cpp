#include <kiln/error.hpp>
#include <kiln/scalar.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <utility>

namespace kiln {

namespace {

template <class T>
std::array<std::byte, 16> bytes_of(T value) {
    std::array<std::byte, 16> out{};
    std::memcpy(out.data(), &value, sizeof(T));
    return out;
}

std::string describe(
    const std::variant<bool, std::int64_t, std::uint64_t, double, std::complex<double>>& value) {
    std::ostringstream text;
    std::visit([&](auto v) { text << v; }, value);
    return text.str();
}

// The value of an integer dtype T: exact, or TypeError.
template <class T>
T to_integer(const auto& value, DType target) {
    auto fail = [&] {
        return TypeError("kiln: scalar " + describe(value) + " is out of range for " +
                         std::string(name(target)));
    };
    return std::visit(
        [&](auto v) -> T {
            using V = decltype(v);
            if constexpr (std::is_same_v<V, bool>) {
                return static_cast<T>(v);
            } else if constexpr (std::is_same_v<V, double> ||
                                 std::is_same_v<V, std::complex<double>>) {
                double real = 0.0;
                if constexpr (std::is_same_v<V, double>) {
                    real = v;
                } else {
                    real = v.real();
                }
                // The range test is written so that NaN fails it.
                if (!(real >= static_cast<double>(std::numeric_limits<T>::min()) - 1.0 &&
                      real < static_cast<double>(std::numeric_limits<T>::max()) + 1.0)) {
                    throw fail();
                }
                return static_cast<T>(real);
            } else {
                if (!std::in_range<T>(v)) {
                    throw fail();
                }
                return static_cast<T>(v);
            }
        },
        value);
}

// The float nearest `value` toward zero, with its last bit set when inexact ("round to odd").
// Rounding that float to half then rounds as a direct double -> half conversion would: float
// keeps more than two bits beyond half's precision, and the odd bit records that bits were lost.
float round_to_odd_float(double value) {
    auto f = static_cast<float>(value);
    if (static_cast<double>(f) == value || !std::isfinite(value)) {
        return f;
    }
    if (std::abs(static_cast<double>(f)) > std::abs(value)) {
        f = std::nextafter(f, 0.0F);
    }
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    bits |= 1U;
    std::memcpy(&f, &bits, sizeof bits);
    return f;
}

// The value as a double or complex<double> (a real-valued scalar keeps a zero imaginary part).
std::complex<double> to_complex(const auto& value) {
    return std::visit(
        [](auto v) -> std::complex<double> {
            if constexpr (std::is_same_v<decltype(v), std::complex<double>>) {
                return v;
            } else {
                return {static_cast<double>(v), 0.0};
            }
        },
        value);
}

}  // namespace

std::array<std::byte, 16> Scalar::bytes_as(DType target) const {
    switch (target) {
        case DType::bool_:
            return bytes_of<bool>(to_complex(value_) != std::complex<double>{});
        case DType::int8:
            return bytes_of(to_integer<std::int8_t>(value_, target));
        case DType::int16:
            return bytes_of(to_integer<std::int16_t>(value_, target));
        case DType::int32:
            return bytes_of(to_integer<std::int32_t>(value_, target));
        case DType::int64:
            return bytes_of(to_integer<std::int64_t>(value_, target));
        case DType::uint8:
            return bytes_of(to_integer<std::uint8_t>(value_, target));
        case DType::uint16:
            return bytes_of(to_integer<std::uint16_t>(value_, target));
        case DType::uint32:
            return bytes_of(to_integer<std::uint32_t>(value_, target));
        case DType::uint64:
            return bytes_of(to_integer<std::uint64_t>(value_, target));
        case DType::float16:
            return bytes_of(half(round_to_odd_float(to_complex(value_).real())));
        case DType::float32:
            return bytes_of(static_cast<float>(to_complex(value_).real()));
        case DType::float64:
            return bytes_of(to_complex(value_).real());
        case DType::complex64:
            return bytes_of(std::complex<float>(to_complex(value_)));
        case DType::complex128:
            return bytes_of(to_complex(value_));
    }
    throw TypeError("kiln: Scalar::bytes_as: invalid dtype value " +
                    std::to_string(static_cast<int>(target)));
}

}  // namespace kiln
