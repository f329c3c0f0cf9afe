/// @file
/// A host scalar of any kiln element type, as taken by fill, full and kernel arguments.
#pragma once

#include <kiln/dtype.hpp>

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <variant>

namespace kiln {

/// A C++ number of any dtype, kept exactly, with the dtype of its C++ type: a weak scalar under NEP
/// 50 when passed to ufuncs.
class Scalar {
public:
    /// Implicit, so that a.fill(1.5) and full(shape, 7) read naturally.
    template <class T>
    requires has_dtype<T> Scalar(T value)
        : dtype_(dtype_of<T>) {  // NOLINT(google-explicit-constructor)
        if constexpr (std::is_same_v<T, bool>) {
            value_ = value;
        } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
            value_ = static_cast<std::int64_t>(value);
        } else if constexpr (std::is_integral_v<T>) {
            value_ = static_cast<std::uint64_t>(value);
        } else if constexpr (std::is_same_v<T, std::complex<float>> ||
                             std::is_same_v<T, std::complex<double>>) {
            value_ = std::complex<double>(value.real(), value.imag());
        } else {
            value_ = static_cast<double>(value);
        }
    }

    /// The dtype of the C++ value it was made from.
    [[nodiscard]] DType dtype() const noexcept { return dtype_; }

    /// The value as an element of `target`, in that dtype's bytes (the first itemsize(target)
    /// bytes are used). A complex value gives its real part to a real dtype. Throws TypeError when
    /// the value does not fit: an integer out of range, or a NaN, infinite or out-of-range float
    /// converted to an integer dtype.
    [[nodiscard]] std::array<std::byte, 16> bytes_as(DType target) const;

private:
    std::variant<bool, std::int64_t, std::uint64_t, double, std::complex<double>> value_;
    DType dtype_;
};

}  // namespace kiln
