// The array routines: kiln's ufuncs beside CuPy's same call, at memory bandwidth. The int32 row
// has the shape of vector_add_i32_1e8 (an ElementwiseKernel), so their host times side by side
// give what the routine's dispatch costs above the kernel it runs.
#include "../check.hpp"
#include "../inputs.hpp"
#include "../peak_memory.hpp"
#include "../reference/elementwise.hpp"
#include "../reference/raw_kernels.hpp"
#include "../reference/reductions.hpp"
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

#include <kiln/lazy.hpp>
#include <kiln/linalg.hpp>
#include <kiln/operators.hpp>
#include <kiln/reductions.hpp>
#include <kiln/scans.hpp>
#include <kiln/ufuncs.hpp>

#include <string>
#include <vector>

namespace kiln::bench {

namespace {

// kiln::add(x, y) of two 1e8 arrays of T: 3 * sizeof(T) bytes per element.
template <class T>
Record ufunc_add(const Context& context, const std::string& name, std::uint64_t seed) {
    const std::int64_t n = context.scaled(100'000'000);
    const std::string dtype(kiln::name(dtype_of<T>));
    Record r = make_record(name, "kiln::add(x, y), " + dtype + " (cupy.add)", "routine", {n}, dtype,
                           "memory");
    r.bytes = 3.0 * sizeof(T) * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto x = [&] {
        if constexpr (std::is_integral_v<T>) {
            return integers_input<T>(context, "x", {n}, -1'000'000, 1'000'000, seed);
        } else {
            return normal_input<T>(context, "x", {n}, 1.0, seed);
        }
    }();
    const auto y = [&] {
        if constexpr (std::is_integral_v<T>) {
            return integers_input<T>(context, "y", {n}, -1'000'000, 1'000'000, seed + 1);
        } else {
            return normal_input<T>(context, "y", {n}, 1.0, seed + 1);
        }
    }();
    r.inputs = {x.spec, y.spec};
    std::vector<T> want(x.host.size());
    r.kokkos_ms = reference_ms(context, [&] { reference::add<T>(x.host, y.host, want); });
    if (context.gpu) {
        ndarray z;
        store(r, time_device(context, [&] { z = kiln::add(x.device, y.device); }));
        r.check = check_values(z.get<T>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

// kiln::sum of a (rows, cols) float32 matrix along one axis (cupy.sum).
Record routine_sum(const Context& context, const std::string& name, std::int64_t rows,
                   std::int64_t cols, int axis) {
    Record r = make_record(name, "kiln::sum(x, axis), float32 (cupy.sum)", "routine", {rows, cols},
                           "float32", "memory");
    r.params = Json::object({{"axis", axis}});
    r.bytes = 4.0 * static_cast<double>(rows * cols + (axis == 0 ? cols : rows));
    const PeakMemory peak(context.gpu);
    const auto x = uniform_input<float>(context, "x", {rows, cols}, 1.0, 92);
    r.inputs = {x.spec};
    std::vector<float> want;
    r.kokkos_ms =
        reference_ms(context, [&] { want = reference::sum_axis(x.host, rows, cols, axis); });
    if (context.gpu) {
        ndarray y;
        store(r, time_device(context, [&] { y = kiln::sum(x.device, {.axis = axis}); }));
        r.check = check_values(y.get<float>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

// The seeds' "easy" mean squared error written with routines: d = x - y, then mean(d * d), three
// kernels and two temporaries, against cupy.mean((x - y) ** 2). Deferred (lazy_mse_f64_1e8),
// the same code is one reduction kernel, reading x and y once, with no temporaries.
Record routine_mse(const Context& context, bool lazy) {
    const LazyFusionScope mode(lazy);
    const std::int64_t n = context.scaled(100'000'000);
    Record r = make_record(lazy ? "lazy_mse_f64_1e8" : "routine_mse_f64_1e8",
                           std::string("d = x - y; kiln::mean(d * d)") + (lazy ? ", lazy" : "") +
                               ", float64 (cupy.mean((x - y) ** 2))",
                           lazy ? "lazy" : "routine", {n}, "float64", "memory");
    // Eagerly: read x and y, write and read the difference, write and read its square.
    r.bytes = 8.0 * (lazy ? 2.0 : 6.0) * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto x = normal_input<double>(context, "x", {n}, 1.0, 71);
    const auto y = normal_input<double>(context, "y", {n}, 1.0, 72);
    r.inputs = {x.spec, y.spec};
    double want = 0;
    r.kokkos_ms =
        reference_ms(context, [&] { want = reference::mean_squared_error(x.host, y.host); });
    if (context.gpu) {
        ndarray m;
        store(r, time_device(context, [&] {
                  const ndarray d = x.device - y.device;
                  m = kiln::mean(d * d);
              }));
        r.check = check_values(m.get<double>(), std::vector<double>{want});
        r.peak_bytes = peak.bytes();
    }
    return r;
}

// kiln::cumsum of 1e8 float32 (cupy.cumsum): one read and one write of each element, as a copy.
Record routine_cumsum(const Context& context) {
    const std::int64_t n = context.scaled(100'000'000);
    Record r = make_record("routine_cumsum_f32_1e8", "kiln::cumsum(x), float32 (cupy.cumsum)",
                           "routine", {n}, "float32", "memory");
    r.bytes = 8.0 * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto x = uniform_input<float>(context, "x", {n}, 1.0, 93);
    r.inputs = {x.spec};
    std::vector<float> want;
    r.kokkos_ms = reference_ms(context, [&] { want = reference::cumsum(x.host); });
    if (context.gpu) {
        ndarray y;
        store(r, time_device(context, [&] { y = kiln::cumsum(x.device); }));
        r.check = check_values(y.get<float>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

// kiln::matmul of two 4096 x 4096 float32 matrices (cupy.matmul; both call cuBLAS on CUDA).
// The Kokkos reference computes every 64th row only, as the check; it has no timing.
Record routine_matmul(const Context& context) {
    const std::int64_t side = context.scaled_side(4096, 3);
    Record r = make_record("routine_matmul_f32_4096x4096x4096",
                           "kiln::matmul(a, b), float32 (cupy.matmul)", "routine",
                           {side, side, side}, "float32", "compute");
    r.bytes = 4.0 * 3.0 * static_cast<double>(side * side);
    r.flops =
        2.0 * static_cast<double>(side) * static_cast<double>(side) * static_cast<double>(side);
    r.note = "checked on every 64th row of the product";
    const PeakMemory peak(context.gpu);
    const auto a = normal_input<float>(context, "a", {side, side}, 1.0, 111);
    const auto b = normal_input<float>(context, "b", {side, side}, 1.0, 112);
    r.inputs = {a.spec, b.spec};
    constexpr std::int64_t every = 64;
    std::vector<float> sampled_rows;
    for (std::int64_t row = 0; row < side; row += every) {
        const auto first = a.host.begin() + row * side;
        sampled_rows.insert(sampled_rows.end(), first, first + side);
    }
    const std::int64_t rows = static_cast<std::int64_t>(sampled_rows.size()) / side;
    std::vector<float> want(static_cast<std::size_t>(rows * side));
    reference::matmul(sampled_rows, b.host, want, rows, side, side);
    if (context.gpu) {
        ndarray c;
        store(r, time_device(context, [&] { c = kiln::matmul(a.device, b.device); }));
        const auto all = c.get<float>();
        std::vector<float> got;
        for (std::int64_t row = 0; row < side; row += every) {
            const auto first = all.begin() + row * side;
            got.insert(got.end(), first, first + side);
        }
        r.check = check_values(got, want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

}  // namespace

std::vector<Workload> routine_workloads() {
    return {
        {"ufunc_add_f32_1e8", "kiln::add, float32, 1e8", false, false,
         [](const Context& c) { return ufunc_add<float>(c, "ufunc_add_f32_1e8", 61); }},
        {"ufunc_add_f64_1e8", "kiln::add, float64, 1e8", false, false,
         [](const Context& c) { return ufunc_add<double>(c, "ufunc_add_f64_1e8", 63); }},
        {"ufunc_add_i32_1e8", "kiln::add, int32, 1e8 (vector_add_i32_1e8's shape)", false, false,
         [](const Context& c) { return ufunc_add<std::int32_t>(c, "ufunc_add_i32_1e8", 41); }},
        {"routine_sum_axis0_f32_1e7x16", "kiln::sum along axis 0 of 1e7 rows of 16", false, false,
         [](const Context& c) {
             return routine_sum(c, "routine_sum_axis0_f32_1e7x16", c.scaled(10'000'000), 16, 0);
         }},
        {"routine_sum_axis1_f32_1e7x16", "kiln::sum along axis 1 of 1e7 rows of 16", false, false,
         [](const Context& c) {
             return routine_sum(c, "routine_sum_axis1_f32_1e7x16", c.scaled(10'000'000), 16, 1);
         }},
        {"routine_sum_axis0_f32_16x1e7", "kiln::sum along axis 0 of 16 long rows", false, false,
         [](const Context& c) {
             return routine_sum(c, "routine_sum_axis0_f32_16x1e7", 16, c.scaled(10'000'000), 0);
         }},
        {"routine_sum_axis1_f32_16x1e7", "kiln::sum along axis 1 of 16 long rows", false, false,
         [](const Context& c) {
             return routine_sum(c, "routine_sum_axis1_f32_16x1e7", 16, c.scaled(10'000'000), 1);
         }},
        {"routine_mse_f64_1e8", "mean((x - y) * (x - y)) with routines, float64, 1e8", false, false,
         [](const Context& c) { return routine_mse(c, false); }},
        {"lazy_mse_f64_1e8", "the same, lazy, float64, 1e8", false, false,
         [](const Context& c) { return routine_mse(c, true); }},
        {"routine_cumsum_f32_1e8", "kiln::cumsum, float32, 1e8", false, false, routine_cumsum},
        {"routine_matmul_f32_4096x4096x4096", "kiln::matmul, float32, 4096^3", false, false,
         routine_matmul},
    };
}

}  // namespace kiln::bench
