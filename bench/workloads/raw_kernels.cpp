// RawKernel workloads: the seed's prime-factor sum (integer division: compute bound), also as a
// JIT kernel written in this file and as an ElementwiseKernel (which the host backend runs), and
// the seed's naive matrix product beside a tiled shared-memory one.
#include "../reference/raw_kernels.hpp"
#include "../check.hpp"
#include "../inputs.hpp"
#include "../kernels.hpp"
#include "../peak_memory.hpp"
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

#include <kiln/jit_kernel.hpp>

namespace kiln::bench {

namespace {

// The same body as kernels::prime_factor_sum, compiled from this file.
KILN_JIT_KERNEL(prime_factor_sum_jit, (long long* out, long long n), {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= n - 1)
        return;
    long long k = i + 2, sum = 0;
    for (long long p = 2; p * p <= k; ++p) {
        while (k % p == 0) {
            sum += p;
            k /= p;
        }
    }
    out[i] = k > 1 ? sum + k : sum;
});

// The prime-factor sum as a RawKernel, or (jit) as the JIT kernel above.
Record prime_factor_sum(const Context& context, bool jit) {
    const std::int64_t n = std::max<std::int64_t>(2, context.scaled(1'000'000));
    Record r = make_record(jit ? "prime_factor_sum_jit_i64_1e6" : "prime_factor_sum_i64_1e6",
                           "sum of the prime factors of 2..n by trial division",
                           jit ? "JitKernel" : "RawKernel", {n - 1}, "int64", "compute");
    // CuPy runs the JIT kernel's generated source as a RawKernel.
    r.kernel = jit ? Json::object({{"class", "RawKernel"},
                                   {"code", prime_factor_sum_jit.source()},
                                   {"name", prime_factor_sum_jit.name()}})
                   : kernels::prime_factor_sum.json();
    constexpr unsigned block = 256;
    const auto grid = static_cast<unsigned>((n + block - 1) / block);
    r.params = Json::object({{"n", n}, {"grid", static_cast<std::int64_t>(grid)}, {"block", 256}});
    r.bytes = 8.0 * static_cast<double>(n - 1);
    const PeakMemory peak(context.gpu);
    std::vector<std::int64_t> want(static_cast<std::size_t>(n - 1));
    r.kokkos_ms = reference_ms(context, [&] { reference::prime_factor_sum(n, want); });
    if (context.gpu) {
        const auto kernel = kernels::prime_factor_sum.make();
        const ndarray out = empty({n - 1}, int64);
        store(r, time_device(context, [&] {
                  if (jit) {
                      prime_factor_sum_jit(Dim3{grid}, Dim3{block}, out, n);
                  } else {
                      kernel(Dim3{grid}, Dim3{block}, {out, n});
                  }
              }));
        r.check = check_values(out.get<std::int64_t>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

// The same sums from an ElementwiseKernel of the RawKernel's body, one element per k.
Record prime_factor_sum_elementwise(const Context& context) {
    const std::int64_t n = std::max<std::int64_t>(2, context.scaled(1'000'000));
    Record r = make_record("prime_factor_elementwise_i64_1e6",
                           "sum of the prime factors of 2..n by trial division, ElementwiseKernel",
                           "ElementwiseKernel", {n - 1}, "int64", "compute");
    r.kernel = kernels::prime_factor_sum_elementwise.json();
    r.params = Json::object({{"n", n}});
    r.bytes = 8.0 * static_cast<double>(n - 1);
    const PeakMemory peak(context.gpu);
    std::vector<std::int64_t> want(static_cast<std::size_t>(n - 1));
    r.kokkos_ms = reference_ms(context, [&] { reference::prime_factor_sum(n, want); });
    if (context.gpu) {
        const auto kernel = kernels::prime_factor_sum_elementwise.make();
        const ndarray out = empty({n - 1}, int64);
        store(r, time_device(context, [&] { (void)kernel({out}); }));
        r.check = check_values(out.get<std::int64_t>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

Record matmul(const Context& context, bool tiled) {
    const std::int64_t m = context.scaled_side(1024, 3);
    const std::int64_t n = context.scaled_side(1024, 3);
    const std::int64_t k = context.scaled_side(512, 3);
    const RawDefinition& definition = tiled ? kernels::matmul_tiled : kernels::matmul_naive;
    Record r =
        make_record(tiled ? "matmul_tiled_f32_1024x1024x512" : "matmul_naive_f32_1024x1024x512",
                    tiled ? "c = a @ b, 16x16 tiles in shared memory"
                          : "c = a @ b, one thread per element (the seed's)",
                    "RawKernel", {m, n, k}, "float32", "compute");
    r.kernel = definition.json();
    constexpr unsigned side = 16;
    const Dim3 grid{static_cast<unsigned>((n + side - 1) / side),
                    static_cast<unsigned>((m + side - 1) / side)};
    r.params = Json::object({{"m", m},
                             {"n", n},
                             {"k", k},
                             {"grid", Json::array({static_cast<std::int64_t>(grid.x),
                                                   static_cast<std::int64_t>(grid.y)})},
                             {"block", Json::array({16, 16})}});
    r.bytes = 4.0 * static_cast<double>(m * k + k * n + m * n);
    r.flops = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
    const PeakMemory peak(context.gpu);
    const auto a = normal_input<float>(context, "a", {m, k}, 1.0, 101);
    const auto b = normal_input<float>(context, "b", {k, n}, 1.0, 102);
    r.inputs = {a.spec, b.spec};
    std::vector<float> want(static_cast<std::size_t>(m * n));
    r.kokkos_ms = reference_ms(context, [&] { reference::matmul(a.host, b.host, want, m, n, k); });
    if (context.gpu) {
        const auto kernel = definition.make();
        const ndarray c = empty({m, n}, float32);
        const auto mi = static_cast<int>(m);
        const auto ni = static_cast<int>(n);
        const auto ki = static_cast<int>(k);
        store(r, time_device(context, [&] {
                  kernel(grid, Dim3{side, side}, {a.device, b.device, c, mi, ni, ki});
              }));
        r.check = check_values(c.get<float>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

}  // namespace

std::vector<Workload> raw_kernel_workloads() {
    return {
        {"prime_factor_sum_i64_1e6", "prime-factor sum RawKernel, n = 1e6", false, false,
         [](const Context& c) { return prime_factor_sum(c, false); }},
        {"prime_factor_sum_jit_i64_1e6", "prime-factor sum JIT kernel (KILN_JIT_KERNEL), n = 1e6",
         false, false, [](const Context& c) { return prime_factor_sum(c, true); }},
        {"prime_factor_elementwise_i64_1e6",
         "prime-factor sum ElementwiseKernel (the RawKernel's body), n = 1e6", false, false,
         prime_factor_sum_elementwise},
        {"matmul_naive_f32_1024x1024x512", "naive matmul RawKernel, (1024x512) @ (512x1024)", false,
         false, [](const Context& c) { return matmul(c, false); }},
        skipped_on_host({"matmul_tiled_f32_1024x1024x512", "tiled shared-memory matmul RawKernel",
                         false, false, [](const Context& c) { return matmul(c, true); }},
                        uses_barriers),
    };
}

}  // namespace kiln::bench
