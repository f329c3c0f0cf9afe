// Host launch overhead: 10,000 back-to-back calls on 1,000 float32 elements, per kernel class,
// and the same RawKernel source launched through the vendor's driver call alone: the floor. The
// host time per call is what a launch costs the caller; the GPU time per call, measured over the
// whole batch, is the back-to-back launch rate.
#include "../above_floor.hpp"
#include "../check.hpp"
#include "../driver_launch.hpp"
#include "../inputs.hpp"
#include "../kernels.hpp"
#include "../peak_memory.hpp"
#include "../reference/elementwise.hpp"
#include "../reference/reductions.hpp"
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

#include <kiln/device.hpp>
#include <kiln/raw_module.hpp>
#include <kiln/stream.hpp>

#include <array>

namespace kiln::bench {

namespace {

constexpr int calls = 10'000;
constexpr std::int64_t elements = 1000;

enum class Class { elementwise, reduction, raw, driver };

Record launch_overhead(const Context& context, Class kind) {
    constexpr std::array names{"launch_overhead_elementwise", "launch_overhead_reduction",
                               "launch_overhead_raw", "launch_floor_driver"};
    constexpr std::array classes{"ElementwiseKernel", "ReductionKernel", "RawKernel",
                                 "driver launch"};
    const auto index = static_cast<std::size_t>(kind);
    Record r =
        make_record(names.at(index), std::to_string(calls) + " back-to-back calls on 1000 elements",
                    classes.at(index), {elements}, "float32", "launch");
    r.params = Json::object({{"calls", calls}});
    const PeakMemory peak(context.gpu);
    const auto x = uniform_input<float>(context, "x", {elements}, 1.0, 111);
    const auto y = uniform_input<float>(context, "y", {elements}, 1.0, 112);
    r.inputs = {x.spec, y.spec};
    std::vector<float> want(static_cast<std::size_t>(kind == Class::reduction ? 1 : elements));
    if (kind == Class::reduction) {
        want[0] = reference::sum_axis(x.host, 1, elements, 1)[0];
    } else {
        reference::add<float>(x.host, y.host, want);
    }
    ndarray result;
    std::function<void()> batch;
    std::function<void()> one_call;  // the floor's own row has none
    if (kind == Class::elementwise) {
        r.kernel = kernels::custom_add.json();
        const auto kernel = kernels::custom_add.make();
        batch = [&, kernel] {
            for (int i = 0; i < calls; ++i) {
                result = kernel({x.device, y.device});
            }
        };
        one_call = [&, kernel] { result = kernel({x.device, y.device}); };
    } else if (kind == Class::reduction) {
        r.kernel = kernels::sum.json();
        const auto kernel = kernels::sum.make();
        batch = [&, kernel] {
            for (int i = 0; i < calls; ++i) {
                result = kernel({x.device});
            }
        };
        one_call = [&, kernel] { result = kernel({x.device}); };
    } else {
        r.kernel = kernels::add_raw.json();
        constexpr int n = elements;
        constexpr unsigned block = 256;
        const Dim3 grid{static_cast<unsigned>((elements + block - 1) / block)};
        r.params["grid"] = static_cast<std::int64_t>(grid.x);
        r.params["block"] = 256;
        if (kind == Class::raw) {
            const auto kernel = kernels::add_raw.make();
            batch = [&, kernel, grid] {
                result = empty({elements}, float32);
                for (int i = 0; i < calls; ++i) {
                    kernel(grid, Dim3{block}, {x.device, y.device, result, n});
                }
            };
            one_call = [&, kernel, grid] {
                kernel(grid, Dim3{block}, {x.device, y.device, result, n});
            };
        } else {
            const RawModule module(kernels::add_raw.code);
            const DriverLaunch launch(active_backend(),
                                      module.compile(Device::current().properties().arch),
                                      kernels::add_raw.name);
            batch = [&, launch, grid] {
                result = empty({elements}, float32);
                const void* x_data = x.device.data();
                const void* y_data = y.device.data();
                void* out_data = result.data();
                int count = n;
                std::array<void*, 4> args{&x_data, &y_data, &out_data, &count};
                for (int i = 0; i < calls; ++i) {
                    launch(grid, Dim3{block}, args.data(), current_stream());
                }
            };
        }
    }
    store(r, time_device(context, batch), calls);
    if (one_call) {
        if (const auto figures = above_floor(context, one_call)) {
            store(r, *figures);
        }
    }
    r.check = check_values(result.get<float>(), want);
    r.peak_bytes = peak.bytes();
    return r;
}

}  // namespace

std::vector<Workload> launch_overhead_workloads() {
    return {
        {"launch_overhead_elementwise", "10,000 ElementwiseKernel calls on 1000 elements", true,
         false, [](const Context& c) { return launch_overhead(c, Class::elementwise); }},
        {"launch_overhead_reduction", "10,000 ReductionKernel calls on 1000 elements", true, false,
         [](const Context& c) { return launch_overhead(c, Class::reduction); }},
        {"launch_overhead_raw", "10,000 RawKernel calls on 1000 elements", true, false,
         [](const Context& c) { return launch_overhead(c, Class::raw); }},
        skipped_on_host(
            {"launch_floor_driver", "10,000 launches of the RawKernel's code through the driver",
             true, false, [](const Context& c) { return launch_overhead(c, Class::driver); }},
            "it calls a GPU driver"),
    };
}

}  // namespace kiln::bench
