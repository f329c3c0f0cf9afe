#include "call_context.hpp"

#include <kiln/device.hpp>
#include <kiln/error.hpp>
#include <kiln/event.hpp>
#include <kiln/profiler.hpp>
#include <kiln/stream.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <ostream>
#include <sstream>
#include <utility>

namespace kiln::profiler {

namespace {

constexpr double microseconds_per_second = 1e6;

void require(bool condition, const std::string& message) {
    if (!condition) {
        throw Error("kiln: benchmark: " + message);
    }
}

// "    CPU:   12.345 us   +/- 0.123 (min:   12.000 / max:   13.000) us", as CuPy prints it.
void write_series(std::ostream& out, const std::string& label, const TimeStats& stats,
                  std::size_t count) {
    auto us = [&](double seconds, int width) {
        out << std::setw(width) << seconds * microseconds_per_second;
    };
    out << "    " << label << ':';
    us(stats.mean, 9);
    out << " us";
    if (count > 1) {
        out << "   +/-";
        us(stats.stddev, 6);
        out << " (min:";
        us(stats.min, 9);
        out << " / max:";
        us(stats.max, 9);
        out << ") us";
    }
}

}  // namespace

TimeStats summarize(std::span<const double> times) {
    if (times.empty()) {
        throw Error("kiln: summarize: times is empty: expected at least one time");
    }
    const auto n = static_cast<double>(times.size());
    const double mean = std::accumulate(times.begin(), times.end(), 0.0) / n;
    // Two passes: the sum of squared deviations keeps its precision when the spread is small.
    double squares = 0;
    for (const double t : times) {
        squares += (t - mean) * (t - mean);
    }
    const auto [min, max] = std::minmax_element(times.begin(), times.end());
    return {mean, std::sqrt(squares / n), *min, *max};
}

BenchmarkResult::BenchmarkResult(std::string name, int device, std::vector<double> cpu_times,
                                 std::vector<double> gpu_times)
    : name_(std::move(name)),
      device_(device),
      cpu_times_(std::move(cpu_times)),
      gpu_times_(std::move(gpu_times)) {
    if (cpu_times_.size() != gpu_times_.size()) {
        throw Error("kiln: BenchmarkResult: cpu_times has " + std::to_string(cpu_times_.size()) +
                    " times and gpu_times " + std::to_string(gpu_times_.size()) +
                    ": expected one of each per run");
    }
    if (cpu_times_.empty()) {
        throw Error("kiln: BenchmarkResult: no times: expected at least one run");
    }
    cpu_ = summarize(cpu_times_);
    gpu_ = summarize(gpu_times_);
}

std::string BenchmarkResult::to_string() const {
    std::ostringstream out;
    out << std::fixed << std::setprecision(3) << std::left << std::setw(20) << name_ << ':'
        << std::right;
    write_series(out, "CPU", cpu_, repeats());
    out << ' ';
    write_series(out, "GPU-" + std::to_string(device_), gpu_, repeats());
    return out.str();
}

std::ostream& operator<<(std::ostream& out, const BenchmarkResult& result) {
    return out << result.to_string();
}

BenchmarkResult benchmark(const std::function<void()>& fn, int n_repeat, int n_warmup,
                          std::string name, std::optional<StreamView> stream, double max_duration) {
    require(static_cast<bool>(fn), "fn is empty: expected a function to time");
    require(n_repeat >= 1, "n_repeat must be at least 1, got " + std::to_string(n_repeat));
    require(n_warmup >= 0, "n_warmup must be non-negative, got " + std::to_string(n_warmup));
    require(max_duration > 0, "max_duration must be a positive number of seconds, got " +
                                  std::to_string(max_duration));

    // The stream's device, else the current one; a machine without one is a NoDevice here.
    const StreamView on = detail::call_context("profiler.benchmark", stream, std::nullopt);
    const int device = on.device();
    // fn's own kiln calls default to the current device's current stream: make them the timed
    // stream's.
    const DeviceGuard on_device{Device(device)};
    const StreamGuard guard(on);
    for (int i = 0; i < n_warmup; ++i) {
        fn();
    }
    synchronize(on);

    using clock = std::chrono::steady_clock;
    Event start(Device{device});
    Event end(Device{device});
    std::vector<double> cpu_times;
    std::vector<double> gpu_times;
    cpu_times.reserve(static_cast<std::size_t>(n_repeat));
    gpu_times.reserve(static_cast<std::size_t>(n_repeat));
    const auto first = clock::now();
    for (int i = 0; i < n_repeat; ++i) {
        start.record(on);
        const auto called = clock::now();
        fn();
        const auto returned = clock::now();
        end.record(on);
        end.synchronize();
        cpu_times.push_back(std::chrono::duration<double>(returned - called).count());
        gpu_times.push_back(static_cast<double>(elapsed_time(start, end)) / 1e3);
        if (std::chrono::duration<double>(clock::now() - first).count() >= max_duration) {
            break;
        }
    }
    return {std::move(name), device, std::move(cpu_times), std::move(gpu_times)};
}

}  // namespace kiln::profiler
