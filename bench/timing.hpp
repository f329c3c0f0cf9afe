// How kiln-bench times things: medians of repeated runs after warm-up; GPU time from events on
// the current stream, host time from steady_clock around the enqueue.
#pragma once

#include "context.hpp"
#include "record.hpp"

#include <functional>
#include <vector>

namespace kiln::bench {

[[nodiscard]] double median(std::vector<double> values);

// Seconds `fn` takes on the host.
[[nodiscard]] double host_seconds(const std::function<void()>& fn);

struct DeviceTiming {
    double gpu_ms = 0;      // median, per sample
    double gpu_ms_min = 0;  // fastest sample
    double host_us = 0;     // median host time of the enqueue, per sample
    int samples = 0;
};

// Runs `enqueue` (which queues GPU work on the current stream) through kiln::profiler::benchmark:
// options.warmup times, then options.repeat times between two events, synchronizing after each.
[[nodiscard]] DeviceTiming time_device(const Context& context,
                                       const std::function<void()>& enqueue);

// Stores a timing in the record, each figure divided by `calls_per_sample`.
void store(Record& record, const DeviceTiming& timing, int calls_per_sample = 1);

// The Kokkos side: runs `reference` once (its result is what kiln is checked against), then
// options.cpu_repeat more times; returns the median milliseconds of those.
[[nodiscard]] double reference_ms(const Context& context, const std::function<void()>& reference);

}  // namespace kiln::bench
