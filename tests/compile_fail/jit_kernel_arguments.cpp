// Compiled with -fsyntax-only by ctest, once per KILN_CASE: case 0 must compile, every other case
// must be rejected by the C++ compiler at the launch (tests/CMakeLists.txt checks the diagnostic).
#include <kiln/jit_kernel.hpp>

KILN_JIT_KERNEL(prime_factor_sum, (const long long* a, long long* out, long long n), {
    long long i = blockDim.x * (long long)blockIdx.x + threadIdx.x;
    if (i < n)
        out[i] = a[i];
});
KILN_JIT_KERNEL(scale, (float* x, float factor, int n), { x[threadIdx.x] *= factor; });

void launch(const kiln::ndarray& a, kiln::ndarray& out, long long* raw) {
    const kiln::Dim3 grid{4};
    const kiln::Dim3 block{256};
#if KILN_CASE == 0
    prime_factor_sum(grid, block, a, out, a.size());
    prime_factor_sum(grid, block, raw, raw, 1000, {.shared_mem = 0});
    scale(grid, block, out, 2.0F, a.size());
#elif KILN_CASE == 1  // an argument short
    prime_factor_sum(grid, block, a, out);
#elif KILN_CASE == 2  // a float pointer for a long long pointer
    prime_factor_sum(grid, block, reinterpret_cast<float*>(raw), out, 10);
#elif KILN_CASE == 3  // a double narrowed into a float
    scale(grid, block, out, 2.0, 10);
#endif
}
