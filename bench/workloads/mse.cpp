// The seed's mean squared error of two float64 vectors, three ways: the ReductionKernel with
// `_in_ind.size()`; an elementwise difference-square then a sum ReductionKernel; and a RawKernel
// block reduction. Bytes are the job's (both inputs read once) for all three, so their GB/s
// compare directly.
#include "../check.hpp"
#include "../inputs.hpp"
#include "../kernels.hpp"
#include "../peak_memory.hpp"
#include "../reference/reductions.hpp"
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

#include <kiln/device.hpp>

#include <algorithm>
#include <functional>

namespace kiln::bench {

namespace {

enum class Way { reduction, two_step, raw };

// Runs one way on (x, y) and returns a function that queues it and a function that reads the
// result back.
struct Route {
    std::function<void()> enqueue;
    std::function<double()> result;
};

Route reduction_route(const ndarray& x, const ndarray& y) {
    auto state = std::make_shared<ndarray>();
    const auto kernel = kernels::mse.make();
    return {[=] { *state = kernel({x, y}); }, [=] { return state->get<double>()[0]; }};
}

Route two_step_route(const ndarray& x, const ndarray& y) {
    auto state = std::make_shared<ndarray>();
    const auto difference = kernels::difference_square.make();
    const auto sum = kernels::sum.make();
    const auto n = static_cast<double>(x.size());
    return {[=] {
                *state = sum({difference({x, y})});
            },
            [=] { return state->get<double>()[0] / n; }};
}

Route raw_route(const ndarray& x, const ndarray& y) {
    constexpr unsigned block = 256;
    const std::int64_t n = x.size();
    const auto sms = static_cast<std::int64_t>(Device::current().properties().multiprocessor_count);
    const auto grid = static_cast<unsigned>(
        std::clamp<std::int64_t>((n + block - 1) / block, 1, sms * (2048 / block)));
    const ndarray partial = empty({grid}, float64);
    const ndarray done = zeros({1}, uint32);
    const ndarray out = zeros({}, float64);
    const auto kernel = kernels::mse_block.make();
    return {[=] {
                kernel(Dim3{grid}, Dim3{block}, {x, y, partial, done, out, n},
                       {.shared_mem = block * sizeof(double)});
            },
            [=] { return out.get<double>()[0]; }};
}

Record mse(const Context& context, Way way, std::int64_t nominal, const std::string& suffix) {
    const std::int64_t n = context.scaled(nominal);
    Record r;
    switch (way) {
        case Way::reduction:
            r = make_record("mse_reduction_f64_" + suffix,
                            "MSE, ReductionKernel with _in_ind.size() in the post-map",
                            "ReductionKernel", {n}, "float64", "memory");
            r.kernel = kernels::mse.json();
            break;
        case Way::two_step:
            r = make_record("mse_two_step_f64_" + suffix,
                            "MSE, elementwise difference-square then a sum ReductionKernel",
                            "ElementwiseKernel+ReductionKernel", {n}, "float64", "memory");
            r.kernel = Json::object({{"class", "ElementwiseKernel+ReductionKernel"},
                                     {"elementwise", kernels::difference_square.json()},
                                     {"reduction", kernels::sum.json()}});
            break;
        case Way::raw:
            r = make_record("mse_raw_block_f64_" + suffix,
                            "MSE, RawKernel block reduction (last block finishes)", "RawKernel",
                            {n}, "float64", "memory");
            r.kernel = kernels::mse_block.json();
            r.params = Json::object({{"block", 256}, {"blocks_per_sm", 8}});
            break;
    }
    r.bytes = 16.0 * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto x = uniform_input<double>(context, "x", {n}, 100.0, 1);
    const auto y = uniform_input<double>(context, "y", {n}, 100.0, 2);
    r.inputs = {x.spec, y.spec};
    double want = 0;
    r.kokkos_ms =
        reference_ms(context, [&] { want = reference::mean_squared_error(x.host, y.host); });
    if (context.gpu) {
        const Route route = way == Way::reduction  ? reduction_route(x.device, y.device)
                            : way == Way::two_step ? two_step_route(x.device, y.device)
                                                   : raw_route(x.device, y.device);
        store(r, time_device(context, route.enqueue));
        r.check = check_values(std::vector<double>{route.result()}, std::vector<double>{want});
        r.peak_bytes = peak.bytes();
    }
    return r;
}

Workload workload(Way way, const char* prefix, const char* how, std::int64_t nominal,
                  const char* suffix) {
    return {std::string(prefix) + suffix,
            std::string("MSE of two float64 vectors, ") + suffix + ", " + how, false, false,
            [=](const Context& c) { return mse(c, way, nominal, suffix); }};
}

}  // namespace

std::vector<Workload> mse_workloads() {
    std::vector<Workload> all;
    for (const auto& [nominal, suffix] :
         {std::pair<std::int64_t, const char*>{10'000'000, "1e7"}, {100'000'000, "1e8"}}) {
        all.push_back(
            workload(Way::reduction, "mse_reduction_f64_", "ReductionKernel", nominal, suffix));
        all.push_back(
            workload(Way::two_step, "mse_two_step_f64_", "elementwise then sum", nominal, suffix));
        all.push_back(skipped_on_host(
            workload(Way::raw, "mse_raw_block_f64_", "RawKernel block reduction", nominal, suffix),
            uses_barriers));
    }
    return all;
}

}  // namespace kiln::bench
