#include "timing.hpp"

#include <kiln/profiler.hpp>

#include <algorithm>
#include <chrono>

namespace kiln::bench {

double median(std::vector<double> values) {
    if (values.empty()) {
        return 0;
    }
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

double host_seconds(const std::function<void()>& fn) {
    const auto start = std::chrono::steady_clock::now();
    fn();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

DeviceTiming time_device(const Context& context, const std::function<void()>& enqueue) {
    const auto result =
        profiler::benchmark(enqueue, context.options.repeat, context.options.warmup, "kiln-bench");
    std::vector<double> gpu_ms;
    std::vector<double> host_us;
    for (const double seconds : result.gpu_times()) {
        gpu_ms.push_back(seconds * 1e3);
    }
    for (const double seconds : result.cpu_times()) {
        host_us.push_back(seconds * 1e6);
    }
    return {median(gpu_ms), *std::min_element(gpu_ms.begin(), gpu_ms.end()), median(host_us),
            static_cast<int>(gpu_ms.size())};
}

void store(Record& record, const DeviceTiming& timing, int calls_per_sample) {
    const double calls = calls_per_sample;
    record.gpu_ms = timing.gpu_ms / calls;
    record.gpu_ms_min = timing.gpu_ms_min / calls;
    record.host_us = timing.host_us / calls;
    record.samples = timing.samples;
}

double reference_ms(const Context& context, const std::function<void()>& reference) {
    reference();
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(context.options.cpu_repeat));
    for (int i = 0; i < context.options.cpu_repeat; ++i) {
        ms.push_back(host_seconds(reference) * 1e3);
    }
    return median(ms);
}

}  // namespace kiln::bench
