// The copy bandwidth that every workload's GB/s is compared with, bytes read plus bytes written
// over the median event time of 1 GiB copies: on a GPU, a float32 array copied with
// ndarray::copy(); on the host backend, memcpy split over as many threads as the backend runs
// kernels on, queued on the stream as a host function so that events time it as they time kernels.
#include "../peak_memory.hpp"
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

#include <kiln/ndarray.hpp>
#include <kiln/stream.hpp>

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

namespace kiln::bench {

namespace {

constexpr std::int64_t count = std::int64_t{1} << 28;  // 1 GiB of float32

// `bytes` from `source` to `target` in `threads` contiguous parts, one a thread.
void parallel_memcpy(void* target, const void* source, std::size_t bytes, int threads) {
    const std::size_t parts = static_cast<std::size_t>(std::max(threads, 1));
    const std::size_t part = (bytes / parts + 63) / 64 * 64;
    std::vector<std::thread> workers;
    for (std::size_t i = 1; i < parts && i * part < bytes; ++i) {
        workers.emplace_back([=] {
            const std::size_t begin = i * part;
            std::memcpy(static_cast<char*>(target) + begin,
                        static_cast<const char*>(source) + begin, std::min(part, bytes - begin));
        });
    }
    std::memcpy(target, source, std::min(part, bytes));
    for (auto& worker : workers) {
        worker.join();
    }
}

Record host_memcpy_bandwidth(const Context& context) {
    Record r = make_record("copy_host_memcpy_f32_1GiB",
                           "memcpy on " + std::to_string(context.host_threads) +
                               " thread(s), a host function on the stream: the 100% of the GB/s "
                               "column",
                           "memcpy", {count}, "float32", "memory");
    r.bytes = 2.0 * static_cast<double>(count) * 4;
    r.params = Json::object({{"threads", context.host_threads}});
    const ndarray source = zeros({count}, float32);
    const ndarray target = zeros({count}, float32);
    const int threads = context.host_threads;
    store(r, time_device(context, [&] {
              launch_host_func(current_stream(), [&] {
                  parallel_memcpy(target.data(), source.data(), source.nbytes(), threads);
              });
          }));
    return r;
}

}  // namespace

Record copy_bandwidth(const Context& run_context) {
    Context context = run_context;  // at least 20 samples, whatever --repeat says
    context.options.repeat = std::max(context.options.repeat, 20);
    if (context.host) {
        return host_memcpy_bandwidth(context);
    }
    Record r = make_record("copy_d2d_f32_1GiB",
                           "device-to-device copy, ndarray::copy(): the 100% of the GB/s column",
                           "ndarray::copy", {count}, "float32", "memory");
    r.bytes = 2.0 * static_cast<double>(count) * 4;
    const PeakMemory peak(context.gpu);
    const ndarray source = zeros({count}, float32);
    ndarray target;
    // The previous copy goes back to the pool first, so two arrays are alive, as in CuPy's
    // copy into a preallocated array.
    store(r, time_device(context, [&] {
              target = ndarray();
              target = source.copy();
          }));
    r.peak_bytes = peak.bytes();
    return r;
}

}  // namespace kiln::bench
