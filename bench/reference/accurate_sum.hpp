// A sum accurate to a few ulp whatever the length, so that a reduction's reference is not
// itself the larger error: chunks are summed in parallel, each with Neumaier's compensated
// summation, and the chunk sums are added the same way.
#pragma once

#include "space.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace kiln::bench::reference {

// Adds `value` to (sum, compensation).
inline void neumaier_add(double& sum, double& compensation, double value) {
    const double t = sum + value;
    compensation += std::abs(sum) >= std::abs(value) ? (sum - t) + value : (value - t) + sum;
    sum = t;
}

// The sum of term(i) for i in [0, n).
template <class Term>
[[nodiscard]] double accurate_sum(std::int64_t n, const Term& term) {
    constexpr std::int64_t chunk = 1 << 14;
    const std::int64_t chunks = (n + chunk - 1) / chunk;
    std::vector<double> sums(static_cast<std::size_t>(chunks));
    std::vector<double> compensations(static_cast<std::size_t>(chunks));
    double* sums_data = sums.data();
    double* compensations_data = compensations.data();
    Kokkos::parallel_for(Range(0, chunks), [=](std::int64_t c) {
        double sum = 0;
        double compensation = 0;
        const std::int64_t end = std::min(n, (c + 1) * chunk);
        for (std::int64_t i = c * chunk; i < end; ++i) {
            neumaier_add(sum, compensation, term(i));
        }
        sums_data[c] = sum;
        compensations_data[c] = compensation;
    });
    Kokkos::fence();
    double sum = 0;
    double compensation = 0;
    for (std::size_t c = 0; c < sums.size(); ++c) {
        neumaier_add(sum, compensation, sums[c]);
        neumaier_add(sum, compensation, compensations[c]);
    }
    return sum + compensation;
}

}  // namespace kiln::bench::reference
