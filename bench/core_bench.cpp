// kiln-core-bench: the core runtime's performance figures (docs/perf.md).
//   pool:   host time of an allocate+free pair that hits the pool's cache;
//   copies: host<->device bandwidth of kiln's paths against a plain pinned copy, same run.
// Each figure is the median of many timed repetitions after warm-up.
#include "core/backend.hpp"

#include <kiln/kiln.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string_view>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// Median seconds of `repeats` runs of fn after `warmup` runs, timed on the host.
double host_seconds(const std::function<void()>& fn, int repeats, int warmup) {
    for (int i = 0; i < warmup; ++i) {
        fn();
    }
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        const auto start = Clock::now();
        fn();
        times.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    }
    return median(times);
}

void pool_pairs() {
    kiln::MemoryPool& pool = kiln::get_default_memory_pool();
    const kiln::StreamView stream = kiln::current_stream();
    constexpr int pairs = 100'000;
    for (std::size_t bytes : {std::size_t{512}, std::size_t{1} << 20}) {
        const double seconds = host_seconds(
            [&] {
                for (int i = 0; i < pairs; ++i) {
                    pool.deallocate(pool.allocate(bytes, stream), bytes, stream);
                }
            },
            21, 2);
        std::printf("pool    allocate+free %8zu B   %8.1f ns per pair (host, median of 21 x %d)\n",
                    bytes, seconds / pairs * 1e9, pairs);
    }
}

// A way of moving `bytes`, and the seconds one run of it took.
struct CopyPath {
    const char* name;
    std::function<double()> run_once;
    std::vector<double> seconds;
};

// kiln's copy paths for `bytes` against a plain pinned copy. The staged paths pin at most 64 MiB
// per transfer (a ring of chunks); the pinned pool's size afterwards shows it.
void copies(std::size_t bytes) {
    auto& gpu = kiln::detail::backend();
    const auto count = static_cast<std::int64_t>(bytes / sizeof(float));
    kiln::Stream stream(true);
    kiln::ndarray device = kiln::empty({count}, kiln::float32);
    std::vector<float> pageable(static_cast<std::size_t>(count), 1.0F);
    auto* pinned = static_cast<float*>(gpu.allocate_pinned(bytes));
    std::fill(pinned, pinned + count, 1.0F);
    kiln::PinnedMemoryPool& staging = kiln::get_default_pinned_memory_pool();
    kiln::Device().synchronize();
    staging.free_all_blocks();

    // A single run timed between two events on `stream`: the paths are interleaved below.
    auto events = [&](const std::function<void()>& fn) {
        return kiln::profiler::benchmark(fn, 1, 0, "copy", stream.view()).gpu_times().front();
    };
    auto host_clock = [](const std::function<void()>& fn) {
        const auto start = Clock::now();
        fn();
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    const kiln::StreamView native = stream.view();
    std::vector<CopyPath> paths = {
        {"plain pinned cudaMemcpyAsync H2D (events)",
         [&] { return events([&] { gpu.copy_async(device.data(), pinned, bytes, native); }); }},
        {"set(), async, pinned staging (to sync)",
         [&] {
             return host_clock([&] {
                 device.set(std::span<const float>(pageable), stream);
                 stream.synchronize();
             });
         }},
        {"set(), synchronous, pageable",
         [&] { return host_clock([&] { device.set(std::span<const float>(pageable)); }); }},
        {"plain pinned cudaMemcpyAsync D2H (events)",
         [&] { return events([&] { gpu.copy_async(pinned, device.data(), bytes, native); }); }},
        {"get(), async, into pinned (to sync)",
         [&] {
             return host_clock([&] {
                 device.get(std::span<float>(pinned, count), stream);
                 stream.synchronize();
             });
         }},
        {"get(), synchronous, pageable",
         [&] { return host_clock([&] { device.get(std::span<float>(pageable)); }); }},
    };
    // Interleaved, so that no path gains from running while the machine is warmer.
    constexpr int warmup = 2;
    constexpr int repeats = 21;
    for (int r = 0; r < warmup + repeats; ++r) {
        for (auto& path : paths) {
            const double seconds = path.run_once();
            if (r >= warmup) {
                path.seconds.push_back(seconds);
            }
        }
    }
    gpu.deallocate_pinned(pinned);

    std::printf(
        "copies  %zu MiB, GB/s, median of %d interleaved runs; ratio to the plain "
        "pinned copy in the same direction; pinned pool after: %zu MiB\n",
        bytes >> 20, repeats, staging.total_bytes() >> 20);
    double plain = 0.0;
    for (auto& path : paths) {
        const double gbps = static_cast<double>(bytes) / median(path.seconds) / 1e9;
        if (std::string_view(path.name).starts_with("plain")) {
            plain = gbps;
        }
        std::printf("  %-44s %7.1f   %.2f\n", path.name, gbps, gbps / plain);
    }
}

}  // namespace

int main() {
    try {
        if (kiln::device_count() == 0) {
            std::printf("no device: %s; nothing to measure\n", kiln::no_device_reason().c_str());
            return 0;
        }
        const kiln::Device device;
        std::printf("kiln %s on %s (%s)\n", KILN_VERSION, device.properties().name.c_str(),
                    device.properties().arch.c_str());
        pool_pairs();
        copies(std::size_t{256} << 20);
        copies(std::size_t{2} << 30);  // 32 turns of the staging ring
        return 0;
    } catch (const kiln::Error& e) {
        (void)std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
