// kiln's results against the Kokkos reference: float32 (and complex64) within 1e-5 relative norm,
// float64 (and complex128) within 1e-12, integers exactly; a NaN anywhere fails.
#pragma once

#include "record.hpp"

#include <complex>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace kiln::bench {

[[nodiscard]] Check check_relative(std::span<const double> got, std::span<const double> want,
                                   double tolerance);
[[nodiscard]] Check check_exact(std::span<const std::int64_t> got,
                                std::span<const std::int64_t> want);

template <class T>
[[nodiscard]] constexpr double tolerance_of() {
    return std::is_same_v<T, float> ? 1e-5 : 1e-12;
}

template <class T>
[[nodiscard]] Check check_values(std::span<const T> got, std::span<const T> want) {
    if constexpr (std::is_floating_point_v<T>) {
        const std::vector<double> g(got.begin(), got.end());
        const std::vector<double> w(want.begin(), want.end());
        return check_relative(g, w, tolerance_of<T>());
    } else {
        const std::vector<std::int64_t> g(got.begin(), got.end());
        const std::vector<std::int64_t> w(want.begin(), want.end());
        return check_exact(g, w);
    }
}

// Complex values: the relative norm over real and imaginary parts, at their real type's
// tolerance.
template <class T>
[[nodiscard]] Check check_values(std::span<const std::complex<T>> got,
                                 std::span<const std::complex<T>> want) {
    const auto parts = [](std::span<const std::complex<T>> values) {
        std::vector<double> flat;
        flat.reserve(2 * values.size());
        for (const auto& v : values) {
            flat.push_back(v.real());
            flat.push_back(v.imag());
        }
        return flat;
    };
    return check_relative(parts(got), parts(want), tolerance_of<T>());
}

template <class T>
[[nodiscard]] Check check_values(const std::vector<T>& got, const std::vector<T>& want) {
    return check_values(std::span<const T>(got), std::span<const T>(want));
}

}  // namespace kiln::bench
