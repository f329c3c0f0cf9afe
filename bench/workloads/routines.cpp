// The array routines: kiln's ufuncs beside CuPy's same call, at memory bandwidth. The int32 row
// has the shape of vector_add_i32_1e8 (an ElementwiseKernel), so their host times side by side
// give what the routine's dispatch costs above the kernel it runs.
#include "../check.hpp"
#include "../inputs.hpp"
#include "../peak_memory.hpp"
#include "../reference/elementwise.hpp"
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

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

}  // namespace

std::vector<Workload> routine_workloads() {
    return {
        {"ufunc_add_f32_1e8", "kiln::add, float32, 1e8", false, false,
         [](const Context& c) { return ufunc_add<float>(c, "ufunc_add_f32_1e8", 61); }},
        {"ufunc_add_f64_1e8", "kiln::add, float64, 1e8", false, false,
         [](const Context& c) { return ufunc_add<double>(c, "ufunc_add_f64_1e8", 63); }},
        {"ufunc_add_i32_1e8", "kiln::add, int32, 1e8 (vector_add_i32_1e8's shape)", false, false,
         [](const Context& c) { return ufunc_add<std::int32_t>(c, "ufunc_add_i32_1e8", 41); }},
    };
}

}  // namespace kiln::bench
