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

// Median seconds of `repeats` runs of fn after warm-up, timed with device events on `stream`.
double device_seconds(const std::function<void()>& fn, kiln::StreamView stream, int repeats) {
    fn();
    kiln::synchronize(stream);
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        kiln::Event start;
        kiln::Event end;
        start.record(stream);
        fn();
        end.record(stream);
        end.synchronize();
        times.push_back(kiln::elapsed_time(start, end) / 1e3);
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

void copies() {
    auto& gpu = kiln::detail::backend();
    constexpr std::size_t bytes = std::size_t{256} << 20;
    constexpr std::int64_t count = bytes / sizeof(float);
    kiln::Stream stream(true);
    kiln::ndarray device = kiln::empty({count}, kiln::float32);
    std::vector<float> pageable(count, 1.0F);
    auto* pinned = static_cast<float*>(gpu.allocate_pinned(bytes));
    std::fill(pinned, pinned + count, 1.0F);
    auto gbps = [](double seconds) { return static_cast<double>(bytes) / seconds / 1e9; };
    constexpr int repeats = 20;

    const double plain_h2d = device_seconds(
        [&] { gpu.copy_async(device.data(), pinned, bytes, stream.view().native()); }, stream,
        repeats);
    const double plain_d2h = device_seconds(
        [&] { gpu.copy_async(pinned, device.data(), bytes, stream.view().native()); }, stream,
        repeats);
    const double staged_h2d = host_seconds(
        [&] {
            device.set(std::span<const float>(pageable), stream);
            stream.synchronize();
        },
        repeats, 2);
    const double sync_h2d =
        host_seconds([&] { device.set(std::span<const float>(pageable)); }, repeats, 2);
    const double pinned_d2h = host_seconds(
        [&] {
            device.get(std::span<float>(pinned, count), stream);
            stream.synchronize();
        },
        repeats, 2);
    const double sync_d2h =
        host_seconds([&] { device.get(std::span<float>(pageable)); }, repeats, 2);
    gpu.deallocate_pinned(pinned);

    std::printf("copies  256 MiB, GB/s (median of %d)        ratio to plain pinned copy\n",
                repeats);
    std::printf("  plain pinned cudaMemcpyAsync H2D   %7.1f   1.00 (device events)\n",
                gbps(plain_h2d));
    std::printf("  set(), async, pinned staging       %7.1f   %.2f (host clock, to sync)\n",
                gbps(staged_h2d), plain_h2d / staged_h2d);
    std::printf("  set(), synchronous, pageable       %7.1f   %.2f (host clock)\n", gbps(sync_h2d),
                plain_h2d / sync_h2d);
    std::printf("  plain pinned cudaMemcpyAsync D2H   %7.1f   1.00 (device events)\n",
                gbps(plain_d2h));
    std::printf("  get(), async, into pinned          %7.1f   %.2f (host clock, to sync)\n",
                gbps(pinned_d2h), plain_d2h / pinned_d2h);
    std::printf("  get(), synchronous, pageable       %7.1f   %.2f (host clock)\n", gbps(sync_d2h),
                plain_d2h / sync_d2h);
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
        copies();
        return 0;
    } catch (const kiln::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
