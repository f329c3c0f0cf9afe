// The sum of the prime factors of 2..n (with multiplicity: 12 = 2*2*3 gives 7), written twice: as
// a RawKernel from a source string, and as a JIT kernel written in this file. Both are checked
// against the same loop on the host.
#include <kiln/kiln.hpp>

#include <cstdint>
#include <iostream>
#include <vector>

namespace {

constexpr const char* raw_source = R"(
extern "C" __global__ void prime_factor_sum(const long long* a, long long* out, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long k = a[i], sum = 0;
    for (long long p = 2; p * p <= k; ++p) {
        while (k % p == 0) { sum += p; k /= p; }
    }
    out[i] = k > 1 ? sum + k : sum;
}
)";

// The same body, compiled from this file's text on first launch.
KILN_JIT_KERNEL(jit_prime_factor_sum, (const long long* a, long long* out, long long n), {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long k = a[i], sum = 0;
    for (long long p = 2; p * p <= k; ++p) {
        while (k % p == 0) {
            sum += p;
            k /= p;
        }
    }
    out[i] = k > 1 ? sum + k : sum;
});

std::int64_t host_prime_factor_sum(std::int64_t k) {
    std::int64_t sum = 0;
    for (std::int64_t p = 2; p * p <= k; ++p) {
        for (; k % p == 0; k /= p) {
            sum += p;
        }
    }
    return k > 1 ? sum + k : sum;
}

// Compares every element with the host's value; prints the first mismatch.
bool agrees(const char* way, const std::vector<std::int64_t>& got) {
    for (std::size_t i = 0; i < got.size(); ++i) {
        const auto k = static_cast<std::int64_t>(i) + 2;
        const std::int64_t want = host_prime_factor_sum(k);
        if (got[i] != want) {
            std::cout << way << ": MISMATCH at " << k << ": expected " << want << ", got " << got[i]
                      << '\n';
            return false;
        }
    }
    std::cout << way << ": " << got.size() << " sums agree (the last three: " << got[got.size() - 3]
              << ' ' << got[got.size() - 2] << ' ' << got.back() << ")\n";
    return true;
}

}  // namespace

int main() {
    try {
        const std::int64_t n = 100'000;
        const kiln::ndarray a = kiln::arange(2, n + 2);  // int64
        const auto blocks = static_cast<unsigned>((n + 255) / 256);

        kiln::ndarray raw_out = kiln::empty({n}, kiln::int64);
        const kiln::RawKernel raw(raw_source, "prime_factor_sum");
        raw(kiln::Dim3{blocks}, kiln::Dim3{256}, {a, raw_out, n});

        kiln::ndarray jit_out = kiln::empty({n}, kiln::int64);
        jit_prime_factor_sum(kiln::Dim3{blocks}, kiln::Dim3{256}, a, jit_out, n);

        bool ok = agrees("RawKernel", raw_out.get<std::int64_t>());
        ok = agrees("JIT kernel", jit_out.get<std::int64_t>()) && ok;
        return ok ? 0 : 1;
    } catch (const kiln::Error& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
}
