// Lazy fusion (include/kiln/lazy.hpp), each row with it switched on: chains of 3 to 5 operators at
// memory bandwidth (only the inputs and the final output move), a loop of scalar updates with the
// kernels it compiled, and the host time of a deferred operator beside the same routine run
// eagerly. The seeds' MSE deferred is in routines.cpp, beside its eager row.
#include "../above_floor.hpp"
#include "../check.hpp"
#include "../inputs.hpp"
#include "../peak_memory.hpp"
#include "../reference/elementwise.hpp"
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

#include <kiln/compile_cache.hpp>
#include <kiln/lazy.hpp>
#include <kiln/operators.hpp>
#include <kiln/ufuncs.hpp>

#include <array>
#include <string>
#include <vector>

namespace kiln::bench {

namespace {

// (x - y) * (x + y), then - x, then * y: `operations` operators on two float32 inputs.
ndarray operator_chain(const ndarray& x, const ndarray& y, int operations) {
    ndarray value = (x - y) * (x + y);
    if (operations > 3) {
        value = value - x;
    }
    if (operations > 4) {
        value = value * y;
    }
    return value;
}

Record lazy_chain(const Context& context, int operations) {
    const LazyFusionScope lazy(true);
    const std::int64_t n = context.scaled(100'000'000);
    const std::string ops = std::to_string(operations);
    Record r = make_record("lazy_chain" + ops + "_f32_1e8",
                           ops + " operators on x and y, lazy, float32 (CuPy eager)", "lazy", {n},
                           "float32", "memory");
    r.params = Json::object({{"operations", operations}});
    r.bytes = 12.0 * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto x = normal_input<float>(context, "x", {n}, 1.0, 131);
    const auto y = normal_input<float>(context, "y", {n}, 1.0, 132);
    r.inputs = {x.spec, y.spec};
    std::vector<float> want(x.host.size());
    r.kokkos_ms =
        reference_ms(context, [&] { reference::operator_chain(x.host, y.host, operations, want); });
    if (context.gpu) {
        ndarray z;
        store(r, time_device(context, [&] { z = operator_chain(x.device, y.device, operations); }));
        r.check = check_values(z.get<float>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

// 1000 updates x = x * scale + shift whose scalars change each step; the params count the kernels
// compiled or looked up in the compile cache over the whole row (warm-up and samples).
Record lazy_scalar_loop(const Context& context) {
    const LazyFusionScope lazy(true);
    constexpr int updates = 1000;
    const std::int64_t n = context.scaled(1'000'000);
    Record r = make_record("lazy_scalar_loop_f32_1e6",
                           "1000 updates x = x * s + t with changing scalars, lazy, float32",
                           "lazy", {n}, "float32", "memory");
    r.bytes = 8.0 * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto x = uniform_input<float>(context, "x", {n}, 1.0, 133);
    r.inputs = {x.spec};
    std::vector<float> want(x.host.size());
    r.kokkos_ms = reference_ms(context, [&] { reference::scalar_updates(x.host, updates, want); });
    if (context.gpu) {
        ndarray z;
        const CompileCacheStatistics before = compile_cache_statistics();
        store(r, time_device(context, [&] {
                  z = x.device;
                  for (int step = 0; step < updates; ++step) {
                      z = z * (1.0 - 1e-4 * step) + 1e-3 * step;
                  }
              }));
        const CompileCacheStatistics after = compile_cache_statistics();
        r.params = Json::object(
            {{"updates", updates},
             {"compiles", static_cast<std::int64_t>(after.compiles - before.compiles)},
             {"cache_lookups", static_cast<std::int64_t>(after.memory_hits + after.disk_hits -
                                                         before.memory_hits - before.disk_hits)}});
        r.check = check_values(z.get<float>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

// The host time of kiln::add(x, y) on 1000 float32 elements: deferred (nothing launches until the
// last result is read), deferred and then run each time, and eager.
enum class AddMode { deferred, deferred_and_run, eager };
constexpr std::array add_names{"launch_overhead_deferred_add", "launch_overhead_lazy_add",
                               "launch_overhead_routine_add"};

Record routine_add_overhead(const Context& context, AddMode mode) {
    constexpr int calls = 10'000;
    constexpr std::int64_t elements = 1000;
    constexpr std::array descriptions{"x + y deferred", "x + y deferred, then run",
                                      "kiln::add(x, y) eagerly"};
    const auto index = static_cast<std::size_t>(mode);
    const LazyFusionScope lazy(mode != AddMode::eager);
    Record r = make_record(
        add_names.at(index),
        std::to_string(calls) + " back-to-back calls on 1000 elements: " + descriptions.at(index),
        "routine", {elements}, "float32", "launch");
    r.params = Json::object({{"calls", calls}});
    const PeakMemory peak(context.gpu);
    const auto x = uniform_input<float>(context, "x", {elements}, 1.0, 111);
    const auto y = uniform_input<float>(context, "y", {elements}, 1.0, 112);
    r.inputs = {x.spec, y.spec};
    std::vector<float> want(elements);
    reference::add<float>(x.host, y.host, want);
    if (context.gpu) {
        ndarray z;
        store(r,
              time_device(context,
                          [&] {
                              for (int i = 0; i < calls; ++i) {
                                  z = x.device + y.device;
                                  if (mode == AddMode::deferred_and_run) {
                                      (void)z.data();
                                  }
                              }
                          }),
              calls);
        // A deferred add launches nothing, so it has no floor to stand on.
        if (mode != AddMode::deferred) {
            if (const auto figures = above_floor(context, [&] {
                    z = x.device + y.device;
                    (void)z.data();
                })) {
                store(r, *figures);
            }
        }
        r.check = check_values(z.get<float>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

}  // namespace

std::vector<Workload> lazy_workloads() {
    std::vector<Workload> rows;
    for (const int operations : {3, 4, 5}) {
        rows.push_back({"lazy_chain" + std::to_string(operations) + "_f32_1e8",
                        std::to_string(operations) + " operators, lazy, float32, 1e8", false, false,
                        [operations](const Context& c) { return lazy_chain(c, operations); }});
    }
    rows.push_back({"lazy_scalar_loop_f32_1e6", "1000 scalar updates, lazy, float32, 1e6", false,
                    false, lazy_scalar_loop});
    for (const AddMode mode : {AddMode::deferred, AddMode::deferred_and_run, AddMode::eager}) {
        rows.push_back({add_names.at(static_cast<std::size_t>(mode)),
                        "10,000 adds of 1000 elements", true, false,
                        [mode](const Context& c) { return routine_add_overhead(c, mode); }});
    }
    return rows;
}

}  // namespace kiln::bench
