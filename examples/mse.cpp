// The mean squared error of two float64 vectors four ways: routines, a ReductionKernel, a
// RawKernel block reduction and kiln::fuse. Each is checked against the same sum on the host.
#include <kiln/kiln.hpp>

#include <cmath>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <vector>

namespace {

// Each block sums the squared differences of its threads' elements (a grid-stride loop) in shared
// memory and writes one partial sum; the partial sums are added afterwards.
constexpr const char* block_mse_source = R"(
extern "C" __global__ void block_mse(const double* x, const double* y, double* partial,
                                     long long n) {
    extern __shared__ double shared[];
    double acc = 0.0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
        double d = x[i] - y[i];
        acc += d * d;
    }
    shared[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) shared[threadIdx.x] += shared[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = shared[0];
}
)";

bool agrees(const char* way, double got, double want) {
    const bool ok = std::abs(got - want) <= 1e-12 * std::abs(want);
    std::cout << std::setprecision(17) << way << ": " << got;
    if (!ok) {
        std::cout << "  MISMATCH: expected " << want;
    }
    std::cout << '\n';
    return ok;
}

}  // namespace

int main() {
    try {
        const std::int64_t n = 1 << 18;
        const kiln::ndarray x = kiln::random::uniform({n}, 0.0, 1.0, /*seed=*/1);
        const kiln::ndarray y = kiln::random::uniform({n}, 0.0, 1.0, /*seed=*/2);

        // The reference: the same numbers, summed on the host in long double.
        const std::vector<double> hx = x.get<double>();
        const std::vector<double> hy = y.get<double>();
        long double sum = 0;
        for (std::int64_t i = 0; i < n; ++i) {
            const long double d = static_cast<long double>(hx[i]) - hy[i];
            sum += d * d;
        }
        const auto want = static_cast<double>(sum / n);

        const kiln::ndarray d = x - y;
        const double by_routines = kiln::mean(d * d).item<double>();

        const kiln::ReductionKernel mse_kernel("T x, T y", "T z", "(x - y) * (x - y)", "a + b",
                                               "z = a / _in_ind.size()", "0", "mse");
        const double by_reduction = mse_kernel({x, y}).item<double>();

        const unsigned block = 256;
        const unsigned grid = 64;
        const kiln::ndarray partial = kiln::empty({grid}, kiln::float64);
        const kiln::RawKernel block_mse(block_mse_source, "block_mse");
        block_mse(kiln::Dim3{grid}, kiln::Dim3{block}, {x, y, partial, n},
                  {.shared_mem = block * sizeof(double)});
        const double by_raw = kiln::sum(partial).item<double>() / static_cast<double>(n);

        auto fused_mse =
            kiln::fuse("mse", [](auto a, auto b) { return kiln::mean((a - b) * (a - b)); });
        const double by_fuse = fused_mse(x, y).item<double>();

        std::cout << "MSE of " << n << " uniform pairs (expected " << std::setprecision(17) << want
                  << ")\n";
        bool ok = agrees("routines", by_routines, want);
        ok = agrees("ReductionKernel", by_reduction, want) && ok;
        ok = agrees("RawKernel", by_raw, want) && ok;
        ok = agrees("fuse", by_fuse, want) && ok;
        return ok ? 0 : 1;
    } catch (const kiln::Error& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
}
