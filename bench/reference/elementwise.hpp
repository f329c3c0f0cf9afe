// Kokkos references of the elementwise workloads, element for element as the kernels define
// them.
#pragma once

#include "space.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <span>

namespace kiln::bench::reference {

template <class T>
void add(std::span<const T> x, std::span<const T> y, std::span<T> z) {
    const T* xs = x.data();
    const T* ys = y.data();
    T* zs = z.data();
    Kokkos::parallel_for(Range(0, static_cast<std::int64_t>(z.size())),
                         [=](std::int64_t i) { zs[i] = xs[i] + ys[i]; });
    Kokkos::fence();
}

// The lazy chains of `operations` (3, 4 or 5) operators on x and y, each rounded to float.
inline void operator_chain(std::span<const float> x, std::span<const float> y, int operations,
                           std::span<float> z) {
    const float* xs = x.data();
    const float* ys = y.data();
    float* zs = z.data();
    Kokkos::parallel_for(Range(0, static_cast<std::int64_t>(z.size())), [=](std::int64_t i) {
        const float difference = xs[i] - ys[i];
        const float sum = xs[i] + ys[i];
        float value = difference * sum;
        if (operations > 3) {
            value = value - xs[i];
        }
        if (operations > 4) {
            value = value * ys[i];
        }
        zs[i] = value;
    });
    Kokkos::fence();
}

// `updates` steps of x = x * scale(i) + shift(i) in float, as the scalar loop's row runs them.
inline void scalar_updates(std::span<const float> x, int updates, std::span<float> z) {
    const float* xs = x.data();
    float* zs = z.data();
    Kokkos::parallel_for(Range(0, static_cast<std::int64_t>(z.size())), [=](std::int64_t i) {
        float value = xs[i];
        for (int step = 0; step < updates; ++step) {
            const auto scale = static_cast<float>(1.0 - 1e-4 * step);
            const auto shift = static_cast<float>(1e-3 * step);
            const float scaled = value * scale;
            value = scaled + shift;
        }
        zs[i] = value;
    });
    Kokkos::fence();
}

inline void clipped_relu(std::span<const double> x, double cap, std::span<double> y) {
    const double* xs = x.data();
    double* ys = y.data();
    Kokkos::parallel_for(Range(0, static_cast<std::int64_t>(y.size())),
                         [=](std::int64_t i) { ys[i] = std::min(std::max(xs[i], 0.0), cap); });
    Kokkos::fence();
}

// z[r, c] = (x[r, c] - row[c])^2 over a (rows, cols) matrix.
inline void squared_diff_row(std::span<const float> x, std::span<const float> row,
                             std::int64_t rows, std::int64_t cols, std::span<float> z) {
    const float* xs = x.data();
    const float* rs = row.data();
    float* zs = z.data();
    Kokkos::parallel_for(Range(0, rows), [=](std::int64_t r) {
        for (std::int64_t c = 0; c < cols; ++c) {
            const float d = xs[r * cols + c] - rs[c];
            zs[r * cols + c] = d * d;
        }
    });
    Kokkos::fence();
}

template <class T>
void squared_magnitude(std::span<const std::complex<T>> z, std::span<T> m) {
    const std::complex<T>* zs = z.data();
    T* ms = m.data();
    Kokkos::parallel_for(Range(0, static_cast<std::int64_t>(m.size())), [=](std::int64_t i) {
        ms[i] = zs[i].real() * zs[i].real() + zs[i].imag() * zs[i].imag();
    });
    Kokkos::fence();
}

// The same from the parts in two arrays: m = x^2 + y^2.
inline void squared_magnitude_pairs(std::span<const double> x, std::span<const double> y,
                                    std::span<double> m) {
    const double* xs = x.data();
    const double* ys = y.data();
    double* ms = m.data();
    Kokkos::parallel_for(Range(0, static_cast<std::int64_t>(m.size())),
                         [=](std::int64_t i) { ms[i] = xs[i] * xs[i] + ys[i] * ys[i]; });
    Kokkos::fence();
}

// z = x * conj(y).
template <class T>
void conj_multiply(std::span<const std::complex<T>> x, std::span<const std::complex<T>> y,
                   std::span<std::complex<T>> z) {
    const std::complex<T>* xs = x.data();
    const std::complex<T>* ys = y.data();
    std::complex<T>* zs = z.data();
    Kokkos::parallel_for(Range(0, static_cast<std::int64_t>(z.size())),
                         [=](std::int64_t i) { zs[i] = xs[i] * std::conj(ys[i]); });
    Kokkos::fence();
}

inline void softplus(std::span<const float> x, std::span<float> y) {
    const float* xs = x.data();
    float* ys = y.data();
    Kokkos::parallel_for(Range(0, static_cast<std::int64_t>(y.size())), [=](std::int64_t i) {
        ys[i] = std::max(xs[i], 0.0F) + std::log1p(std::exp(-std::fabs(xs[i])));
    });
    Kokkos::fence();
}

// y = x.T + x.T for a (rows, cols) matrix x: y is (cols, rows), C order. 64x64 tiles keep both
// sides in cache.
inline void twice_transposed(std::span<const float> x, std::int64_t rows, std::int64_t cols,
                             std::span<float> y) {
    constexpr std::int64_t tile = 64;
    const float* xs = x.data();
    float* ys = y.data();
    const std::int64_t tile_rows = (cols + tile - 1) / tile;
    Kokkos::parallel_for(Range(0, tile_rows), [=](std::int64_t t) {
        const std::int64_t c0 = t * tile;
        const std::int64_t c1 = std::min(cols, c0 + tile);
        for (std::int64_t r0 = 0; r0 < rows; r0 += tile) {
            const std::int64_t r1 = std::min(rows, r0 + tile);
            for (std::int64_t c = c0; c < c1; ++c) {
                for (std::int64_t r = r0; r < r1; ++r) {
                    ys[c * rows + r] = xs[r * cols + c] + xs[r * cols + c];
                }
            }
        }
    });
    Kokkos::fence();
}

}  // namespace kiln::bench::reference
