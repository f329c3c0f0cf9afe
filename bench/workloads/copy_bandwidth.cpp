// The device-to-device copy bandwidth that every workload's GB/s is compared with: a 1 GiB
// float32 array copied with ndarray::copy(), bytes read plus bytes written over the median
// event time of the copies.
#include "../peak_memory.hpp"
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

#include <kiln/ndarray.hpp>

#include <algorithm>

namespace kiln::bench {

Record copy_bandwidth(const Context& run_context) {
    Context context = run_context;  // at least 20 samples, whatever --repeat says
    context.options.repeat = std::max(context.options.repeat, 20);
    constexpr std::int64_t count = std::int64_t{1} << 28;  // 1 GiB of float32
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
