// Host references of the seeds' prime-factor kernels: trial division, one number at a time.
#pragma once

#include <cstdint>

namespace kiln::test {

// The sum of the prime factors of k, with multiplicity (12 = 2*2*3 gives 7).
inline std::int64_t prime_factor_sum(std::int64_t k) {
    std::int64_t sum = 0;
    for (std::int64_t p = 2; p * p <= k; ++p) {
        while (k % p == 0) {
            sum += p;
            k /= p;
        }
    }
    return k > 1 ? sum + k : sum;
}

// The smallest prime factor of k > 1 (k itself when k is prime).
inline std::int64_t smallest_prime_factor(std::int64_t k) {
    for (std::int64_t p = 2; p * p <= k; ++p) {
        if (k % p == 0) {
            return p;
        }
    }
    return k;
}

}  // namespace kiln::test
