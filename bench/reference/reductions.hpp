// Kokkos references of the reduction workloads. Sums are accumulated in float64 (and, for full
// reductions, compensated), so the reference is more accurate than what it checks.
#pragma once

#include "accurate_sum.hpp"
#include "space.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <span>
#include <vector>

namespace kiln::bench::reference {

// The mean of (x - y)^2.
[[nodiscard]] inline double mean_squared_error(std::span<const double> x,
                                               std::span<const double> y) {
    const double* xs = x.data();
    const double* ys = y.data();
    const auto n = static_cast<std::int64_t>(x.size());
    const double sum = accurate_sum(n, [=](std::int64_t i) {
        const double d = xs[i] - ys[i];
        return d * d;
    });
    return sum / static_cast<double>(n);
}

[[nodiscard]] inline double l2norm(std::span<const double> x) {
    const double* xs = x.data();
    return std::sqrt(accurate_sum(static_cast<std::int64_t>(x.size()),
                                  [=](std::int64_t i) { return xs[i] * xs[i]; }));
}

// The sum of complex values, each part summed accurately in float64.
template <class T>
[[nodiscard]] std::complex<double> complex_sum(std::span<const std::complex<T>> z) {
    const std::complex<T>* zs = z.data();
    const auto n = static_cast<std::int64_t>(z.size());
    return {accurate_sum(n, [=](std::int64_t i) { return static_cast<double>(zs[i].real()); }),
            accurate_sum(n, [=](std::int64_t i) { return static_cast<double>(zs[i].imag()); })};
}

// Sums over one axis of a (rows, cols) float32 matrix of f(x), in float64; `finish` maps each
// sum to the output. Axis 1 gives one value per row, axis 0 one per column.
template <class Map, class Finish>
[[nodiscard]] std::vector<float> axis_reduce(std::span<const float> x, std::int64_t rows,
                                             std::int64_t cols, int axis, const Map& map,
                                             const Finish& finish) {
    const float* xs = x.data();
    if (axis == 1) {
        std::vector<float> out(static_cast<std::size_t>(rows));
        float* os = out.data();
        Kokkos::parallel_for(Range(0, rows), [=](std::int64_t r) {
            double acc = 0;
            for (std::int64_t c = 0; c < cols; ++c) {
                acc += map(static_cast<double>(xs[r * cols + c]));
            }
            os[r] = static_cast<float>(finish(acc));
        });
        Kokkos::fence();
        return out;
    }
    // Column sums: each task takes a band of columns and walks every row, accumulating a
    // row-long strip at a time.
    constexpr std::int64_t band = 256;
    std::vector<float> out(static_cast<std::size_t>(cols));
    float* os = out.data();
    Kokkos::parallel_for(Range(0, (cols + band - 1) / band), [=](std::int64_t b) {
        const std::int64_t c0 = b * band;
        const std::int64_t c1 = std::min(cols, c0 + band);
        std::vector<double> acc(static_cast<std::size_t>(c1 - c0));
        for (std::int64_t r = 0; r < rows; ++r) {
            for (std::int64_t c = c0; c < c1; ++c) {
                acc[static_cast<std::size_t>(c - c0)] += map(static_cast<double>(xs[r * cols + c]));
            }
        }
        for (std::int64_t c = c0; c < c1; ++c) {
            os[c] = static_cast<float>(finish(acc[static_cast<std::size_t>(c - c0)]));
        }
    });
    Kokkos::fence();
    return out;
}

[[nodiscard]] inline std::vector<float> l2norm_axis(std::span<const float> x, std::int64_t rows,
                                                    std::int64_t cols, int axis) {
    return axis_reduce(
        x, rows, cols, axis, [](double v) { return v * v; },
        [](double sum) { return std::sqrt(sum); });
}

[[nodiscard]] inline std::vector<float> sum_axis(std::span<const float> x, std::int64_t rows,
                                                 std::int64_t cols, int axis) {
    return axis_reduce(
        x, rows, cols, axis, [](double v) { return v; }, [](double sum) { return sum; });
}

// sum(x * y) along the rows of two (rows, cols) float32 matrices, in float64.
[[nodiscard]] inline std::vector<float> row_dot(std::span<const float> x, std::span<const float> y,
                                                std::int64_t rows, std::int64_t cols) {
    std::vector<float> out(static_cast<std::size_t>(rows));
    const float* xs = x.data();
    const float* ys = y.data();
    float* os = out.data();
    Kokkos::parallel_for(Range(0, rows), [=](std::int64_t r) {
        double acc = 0;
        for (std::int64_t c = 0; c < cols; ++c) {
            acc += static_cast<double>(xs[r * cols + c]) * static_cast<double>(ys[r * cols + c]);
        }
        os[r] = static_cast<float>(acc);
    });
    Kokkos::fence();
    return out;
}

// The running sums of x, accumulated in float64.
[[nodiscard]] inline std::vector<float> cumsum(std::span<const float> x) {
    std::vector<float> out(x.size());
    const float* xs = x.data();
    float* os = out.data();
    Kokkos::parallel_scan(Range(0, static_cast<std::int64_t>(x.size())),
                          [=](std::int64_t i, double& running, bool final) {
                              running += static_cast<double>(xs[i]);
                              if (final) {
                                  os[i] = static_cast<float>(running);
                              }
                          });
    Kokkos::fence();
    return out;
}

}  // namespace kiln::bench::reference
