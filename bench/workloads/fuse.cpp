// kiln::fuse beside cupy.fuse of the same functions: squared_diff (one elementwise kernel),
// sum_of_products along the last axis (the product fused into the reduction's map) and the mean
// squared error (all of it one reduction), at memory bandwidth; and the host time of a fused call
// beside the ElementwiseKernel call it becomes (launch_overhead_elementwise's shape).
#include "../above_floor.hpp"
#include "../check.hpp"
#include "../inputs.hpp"
#include "../peak_memory.hpp"
#include "../reference/elementwise.hpp"
#include "../reference/reductions.hpp"
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

#include <kiln/fuse.hpp>

#include <string>
#include <vector>

namespace kiln::bench {

namespace {

const auto squared_diff = [](auto x, auto y) { return (x - y) * (x - y); };
const auto sum_of_products = [](auto x, auto y) { return kiln::sum(x * y, -1); };
const auto mean_squared_error = [](auto x, auto y) { return kiln::mean((x - y) * (x - y)); };

Record fused_squared_diff(const Context& context) {
    const std::int64_t n = context.scaled(100'000'000);
    Record r = make_record("fuse_squared_diff_f32_1e8",
                           "kiln::fuse((x - y) * (x - y)), float32 (cupy.fuse)", "fuse", {n},
                           "float32", "memory");
    r.bytes = 12.0 * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto x = normal_input<float>(context, "x", {n}, 1.0, 121);
    const auto y = normal_input<float>(context, "y", {n}, 1.0, 122);
    r.inputs = {x.spec, y.spec};
    std::vector<float> want(x.host.size());
    r.kokkos_ms =
        reference_ms(context, [&] { reference::squared_diff_row(x.host, y.host, 1, n, want); });
    if (context.gpu) {
        const auto fused = kiln::fuse("squared_diff", squared_diff);
        ndarray z;
        store(r, time_device(context, [&] { z = fused(x.device, y.device); }));
        r.check = check_values(z.get<float>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

Record fused_sum_of_products(const Context& context) {
    const std::int64_t rows = context.scaled(10'000);
    const std::int64_t cols = 10'000;
    Record r = make_record("fuse_sum_of_products_f32_1e4x1e4",
                           "kiln::fuse(sum(x * y, -1)), float32 (cupy.fuse)", "fuse", {rows, cols},
                           "float32", "memory");
    r.params = Json::object({{"axis", -1}});
    r.bytes = 4.0 * static_cast<double>(2 * rows * cols + rows);
    const PeakMemory peak(context.gpu);
    const auto x = uniform_input<float>(context, "x", {rows, cols}, 1.0, 123);
    const auto y = uniform_input<float>(context, "y", {rows, cols}, 1.0, 124);
    r.inputs = {x.spec, y.spec};
    std::vector<float> want;
    r.kokkos_ms =
        reference_ms(context, [&] { want = reference::row_dot(x.host, y.host, rows, cols); });
    if (context.gpu) {
        const auto fused = kiln::fuse("sum_of_products", sum_of_products);
        ndarray s;
        store(r, time_device(context, [&] { s = fused(x.device, y.device); }));
        r.check = check_values(s.get<float>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

Record fused_mse(const Context& context) {
    const std::int64_t n = context.scaled(100'000'000);
    Record r =
        make_record("fuse_mse_f64_1e8", "kiln::fuse(mean((x - y) * (x - y))), float64 (cupy.fuse)",
                    "fuse", {n}, "float64", "memory");
    r.bytes = 16.0 * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto x = normal_input<double>(context, "x", {n}, 1.0, 71);
    const auto y = normal_input<double>(context, "y", {n}, 1.0, 72);
    r.inputs = {x.spec, y.spec};
    double want = 0;
    r.kokkos_ms =
        reference_ms(context, [&] { want = reference::mean_squared_error(x.host, y.host); });
    if (context.gpu) {
        const auto fused = kiln::fuse("mse", mean_squared_error);
        ndarray m;
        store(r, time_device(context, [&] { m = fused(x.device, y.device); }));
        r.check = check_values(m.get<double>(), std::vector<double>{want});
        r.peak_bytes = peak.bytes();
    }
    return r;
}

// 10,000 back-to-back fused calls of x + y on 1000 float32 elements: launch_overhead_elementwise
// makes the same calls through an ElementwiseKernel, so the two host times differ by what the
// fused call adds (its key and table lookup).
Record fused_launch_overhead(const Context& context) {
    constexpr int calls = 10'000;
    constexpr std::int64_t elements = 1000;
    Record r = make_record("launch_overhead_fused",
                           std::to_string(calls) + " back-to-back fused calls on 1000 elements",
                           "fuse", {elements}, "float32", "launch");
    r.params = Json::object({{"calls", calls}});
    const PeakMemory peak(context.gpu);
    const auto x = uniform_input<float>(context, "x", {elements}, 1.0, 111);
    const auto y = uniform_input<float>(context, "y", {elements}, 1.0, 112);
    r.inputs = {x.spec, y.spec};
    std::vector<float> want(static_cast<std::size_t>(elements));
    reference::add<float>(x.host, y.host, want);
    if (context.gpu) {
        const auto add = kiln::fuse("add", [](auto a, auto b) { return a + b; });
        ndarray result;
        store(r,
              time_device(context,
                          [&] {
                              for (int i = 0; i < calls; ++i) {
                                  result = add(x.device, y.device);
                              }
                          }),
              calls);
        if (const auto figures = above_floor(context, [&] { result = add(x.device, y.device); })) {
            store(r, *figures);
        }
        r.check = check_values(result.get<float>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

}  // namespace

std::vector<Workload> fuse_workloads() {
    return {
        {"fuse_squared_diff_f32_1e8", "kiln::fuse squared_diff, float32, 1e8", false, false,
         fused_squared_diff},
        {"fuse_sum_of_products_f32_1e4x1e4", "kiln::fuse sum(x * y, -1), float32, 1e4 x 1e4", false,
         false, fused_sum_of_products},
        {"fuse_mse_f64_1e8", "kiln::fuse mean((x - y) * (x - y)), float64, 1e8", false, false,
         fused_mse},
        {"launch_overhead_fused", "10,000 fused calls on 1000 elements", true, false,
         fused_launch_overhead},
    };
}

}  // namespace kiln::bench
