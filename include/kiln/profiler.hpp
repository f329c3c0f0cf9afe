/// @file
/// Timing GPU work from the host, as CuPy's cupyx.profiler.benchmark: a function is run many
/// times, each run timed both by the host's clock (CPU time: how long the call took to return)
/// and by device events around it on a stream (GPU time: how long the stream took to run what
/// the call queued).
#pragma once

#include <kiln/stream_view.hpp>

#include <functional>
#include <iosfwd>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kiln::profiler {

/// Summary of a series of times, in seconds.
struct TimeStats {
    /// The arithmetic mean.
    double mean = 0;
    /// The population standard deviation (NumPy's std with ddof=0, as CuPy reports).
    double stddev = 0;
    /// The shortest time.
    double min = 0;
    /// The longest time.
    double max = 0;
};

/// The statistics of `times`. Throws Error when there are none.
[[nodiscard]] TimeStats summarize(std::span<const double> times);

/// The times of every timed run of one benchmark, in seconds, and their statistics.
class BenchmarkResult {
public:
    /// `device` is the GPU the times were taken on. Throws Error when there are no times or the
    /// two series differ in length.
    BenchmarkResult(std::string name, int device, std::vector<double> cpu_times,
                    std::vector<double> gpu_times);

    /// The name given to benchmark().
    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    /// The device the GPU times were taken on.
    [[nodiscard]] int device() const noexcept { return device_; }
    /// The number of timed runs.
    [[nodiscard]] std::size_t repeats() const noexcept { return cpu_times_.size(); }
    /// Wall-clock time of each run on the host, in seconds.
    [[nodiscard]] const std::vector<double>& cpu_times() const noexcept { return cpu_times_; }
    /// Time of each run between two events on the stream, in seconds.
    [[nodiscard]] const std::vector<double>& gpu_times() const noexcept { return gpu_times_; }
    /// Statistics of cpu_times().
    [[nodiscard]] const TimeStats& cpu() const noexcept { return cpu_; }
    /// Statistics of gpu_times().
    [[nodiscard]] const TimeStats& gpu() const noexcept { return gpu_; }

    /// One line in CuPy's layout, in microseconds:
    /// "name                :    CPU:   12.345 us   +/- 0.123 (min:   12.000 / max:   13.000) us
    ///      GPU-0:   20.000 us   +/- ..." (the spread is left out for a single run).
    [[nodiscard]] std::string to_string() const;

private:
    std::string name_;
    int device_;
    std::vector<double> cpu_times_;
    std::vector<double> gpu_times_;
    TimeStats cpu_;
    TimeStats gpu_;
};

/// Prints result.to_string().
std::ostream& operator<<(std::ostream& out, const BenchmarkResult& result);

/// Calls `fn` n_warmup times untimed, waits for the stream, then n_repeat times timed: per run, an
/// event is recorded on `stream` (default: the current stream) before and after `fn`, the host's
/// steady clock times the call, and the end event is waited for. `fn` runs with the stream's
/// device current and the stream its current stream. Timed runs stop early once max_duration
/// seconds have passed since the first (after at least one run), as CuPy's max_duration does.
/// Throws Error for n_repeat < 1, n_warmup < 0, an empty `fn` or a max_duration that is not
/// positive; NoDevice without a device; whatever `fn` throws.
[[nodiscard]] BenchmarkResult benchmark(
    const std::function<void()>& fn, int n_repeat = 10000, int n_warmup = 10,
    std::string name = "fn", std::optional<StreamView> stream = std::nullopt,
    double max_duration = std::numeric_limits<double>::infinity());

}  // namespace kiln::profiler
