// Two independent kernels on one stream against the same two on two streams. Each is the
// prime-factor sum over n = 1e5: a few hundred blocks whose last ones run long, so a second
// stream can fill the device while the first drains.
#include "../check.hpp"
#include "../kernels.hpp"
#include "../peak_memory.hpp"
#include "../reference/raw_kernels.hpp"
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

#include <kiln/event.hpp>
#include <kiln/stream.hpp>

namespace kiln::bench {

namespace {

Record overlap(const Context& context, bool two_streams) {
    const std::int64_t n = std::max<std::int64_t>(2, context.scaled(100'000));
    Record r = make_record(
        two_streams ? "overlap_two_streams_prime_1e5x2" : "overlap_one_stream_prime_1e5x2",
        two_streams ? "two independent prime-factor sums on two streams"
                    : "the same two kernels one after the other on one stream",
        "RawKernel", {2, n - 1}, "int64", "compute");
    r.kernel = kernels::prime_factor_sum.json();
    constexpr unsigned block = 256;
    const auto grid = static_cast<unsigned>((n + block - 1) / block);
    r.params = Json::object({{"n", n},
                             {"grid", static_cast<std::int64_t>(grid)},
                             {"block", 256},
                             {"streams", two_streams ? 2 : 1}});
    r.bytes = 16.0 * static_cast<double>(n - 1);
    const PeakMemory peak(context.gpu);
    std::vector<std::int64_t> want(static_cast<std::size_t>(n - 1));
    r.kokkos_ms = reference_ms(context, [&] {
        reference::prime_factor_sum(n, want);
        reference::prime_factor_sum(n, want);
    });
    if (context.gpu) {
        const auto kernel = kernels::prime_factor_sum.make();
        const ndarray first = empty({n - 1}, int64);
        const ndarray second = empty({n - 1}, int64);
        const StreamView main = current_stream();
        const Stream side(true);
        Event fork(EventFlags{.disable_timing = true});
        Event join(EventFlags{.disable_timing = true});
        store(r, time_device(context, [&] {
                  if (!two_streams) {
                      kernel(Dim3{grid}, Dim3{block}, {first, n});
                      kernel(Dim3{grid}, Dim3{block}, {second, n});
                      return;
                  }
                  fork.record(main);
                  side.wait_event(fork);
                  kernel(Dim3{grid}, Dim3{block}, {first, n});
                  kernel(Dim3{grid}, Dim3{block}, {second, n}, {.stream = side.view()});
                  join.record(side);
                  wait_event(main, join);
              }));
        r.check = check_values(first.get<std::int64_t>(), want);
        if (r.check.status == "ok") {
            r.check = check_values(second.get<std::int64_t>(), want);
        }
        r.peak_bytes = peak.bytes();
    }
    return r;
}

}  // namespace

std::vector<Workload> stream_workloads() {
    return {
        {"overlap_one_stream_prime_1e5x2", "two kernels, one stream", false, false,
         [](const Context& c) { return overlap(c, false); }},
        {"overlap_two_streams_prime_1e5x2", "two kernels, two streams", false, false,
         [](const Context& c) { return overlap(c, true); }},
    };
}

}  // namespace kiln::bench
