// Kokkos references of the RawKernel workloads: the prime-factor sum and the matrix product.
#pragma once

#include "space.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace kiln::bench::reference {

// out[i] = the sum of the prime factors of i + 2, with multiplicity, for i in [0, n - 1)
// (so for 2 .. n, as the seed kernel does).
inline void prime_factor_sum(std::int64_t n, std::span<std::int64_t> out) {
    std::int64_t* os = out.data();
    Kokkos::parallel_for(Range(0, n - 1), [=](std::int64_t i) {
        std::int64_t k = i + 2;
        std::int64_t sum = 0;
        for (std::int64_t p = 2; p * p <= k; ++p) {
            while (k % p == 0) {
                sum += p;
                k /= p;
            }
        }
        os[i] = k > 1 ? sum + k : sum;
    });
    Kokkos::fence();
}

// c = a @ b for a (m, k) and b (k, n), C order, accumulated in float64 row by row.
inline void matmul(std::span<const float> a, std::span<const float> b, std::span<float> c,
                   std::int64_t m, std::int64_t n, std::int64_t k) {
    const float* as = a.data();
    const float* bs = b.data();
    float* cs = c.data();
    Kokkos::parallel_for(Range(0, m), [=](std::int64_t row) {
        std::vector<double> acc(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < k; ++i) {
            const double a_ri = as[row * k + i];
            const float* b_row = bs + i * n;
            for (std::int64_t col = 0; col < n; ++col) {
                acc[static_cast<std::size_t>(col)] += a_ri * b_row[col];
            }
        }
        for (std::int64_t col = 0; col < n; ++col) {
            cs[row * n + col] = static_cast<float>(acc[static_cast<std::size_t>(col)]);
        }
    });
    Kokkos::fence();
}

}  // namespace kiln::bench::reference
