// Timing with kiln::profiler::benchmark (CuPy's cupyx.profiler.benchmark): each run is timed by
// the host's clock and by events on the stream. The computed values are checked on the host, and
// the statistics against the times they summarize.
#include <kiln/kiln.hpp>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <vector>

namespace {

// The statistics' own invariants: min <= mean <= max over `repeats` positive times.
bool consistent(const char* clock, const std::vector<double>& times,
                const kiln::profiler::TimeStats& stats, std::size_t repeats) {
    const auto [lowest, highest] = std::minmax_element(times.begin(), times.end());
    const bool ok = times.size() == repeats && *lowest > 0 && stats.min == *lowest &&
                    stats.max == *highest && stats.min <= stats.mean && stats.mean <= stats.max;
    if (!ok) {
        std::cout << clock << ": MISMATCH: expected " << repeats
                  << " positive times with min <= mean <= max, got " << times.size()
                  << " times, min " << stats.min << ", mean " << stats.mean << ", max " << stats.max
                  << '\n';
    }
    return ok;
}

}  // namespace

int main() {
    try {
        const std::int64_t n = 1 << 20;
        const kiln::ndarray x = kiln::arange(0.0, static_cast<double>(n), 1.0, kiln::float32);
        kiln::ndarray y;
        const int repeats = 20;
        const kiln::profiler::BenchmarkResult result = kiln::profiler::benchmark(
            [&] { y = x * 2.0F + 1.0F; }, repeats, /*n_warmup=*/3, "axpb");
        std::cout << result << '\n';

        bool ok = consistent("CPU", result.cpu_times(), result.cpu(), repeats);
        ok = consistent("GPU", result.gpu_times(), result.gpu(), repeats) && ok;
        const std::vector<float> values = y.get<float>();
        for (std::int64_t i = 0; i < n; ++i) {
            const float want = static_cast<float>(i) * 2.0F + 1.0F;
            if (values[i] != want) {
                std::cout << "axpb: MISMATCH at " << i << ": expected " << want << ", got "
                          << values[i] << '\n';
                ok = false;
                break;
            }
        }
        return ok ? 0 : 1;
    } catch (const kiln::Error& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
}
