#include "staged_copy.hpp"

#include "../backend.hpp"
#include "array_memory.hpp"

#include <kiln/event.hpp>
#include <kiln/memory_pool.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <thread>
#include <vector>

namespace kiln::detail {

namespace {

constexpr std::size_t chunk_bytes = std::size_t{8} << 20;
// Below this one thread copies: starting threads would cost more than it saves.
constexpr std::size_t threaded_bytes = std::size_t{16} << 20;

struct Range {
    std::size_t begin;
    std::size_t end;
};

// Chunk k of a transfer of `bytes`.
Range chunk(std::size_t bytes, std::size_t k) {
    return {k * chunk_bytes, std::min(bytes, (k + 1) * chunk_bytes)};
}

// Worker w's share of a range, in cache-line multiples.
Range share(Range range, unsigned w, unsigned workers) {
    const std::size_t per = ((range.end - range.begin) / workers + 63) / 64 * 64;
    const std::size_t begin = std::min(range.end, range.begin + w * per);
    return {begin, w + 1 == workers ? range.end : std::min(range.end, begin + per)};
}

unsigned worker_count(std::size_t bytes) {
    if (bytes < threaded_bytes) {
        return 1;
    }
    return std::clamp(std::thread::hardware_concurrency() / 2, 1U, 8U);
}

// Runs body(w) for each w < workers, on as many threads (the caller being one). Only the caller
// may queue work on a stream. Rethrows the first exception a worker threw, once all finished.
template <class Body>
void on_workers(unsigned workers, Body body) {
    std::vector<std::exception_ptr> failures(workers);
    auto run = [&](unsigned w) {
        try {
            body(w);
        } catch (...) {
            failures[w] = std::current_exception();
        }
    };
    {
        std::vector<std::jthread> threads;
        threads.reserve(workers - 1);
        for (unsigned w = 1; w < workers; ++w) {
            threads.emplace_back(run, w);
        }
        run(0);
    }
    for (const auto& failure : failures) {
        if (failure) {
            std::rethrow_exception(failure);
        }
    }
}

}  // namespace

void staged_upload(void* device, const void* host, std::size_t bytes, StreamView stream) {
    if (bytes == 0) {
        return;
    }
    auto* staging = static_cast<std::byte*>(acquire_staging(bytes));
    const auto* source = static_cast<const std::byte*>(host);
    auto* target = static_cast<std::byte*>(device);
    const std::size_t chunks = (bytes + chunk_bytes - 1) / chunk_bytes;
    const unsigned workers = worker_count(bytes);

    // Workers copy their shares of each chunk without waiting for one another. The calling
    // thread (worker 0) queues chunk k's DMA once every share of k is copied: only it may, since
    // `stream` can be its own per-thread default stream.
    std::vector<std::atomic<unsigned>> remaining(chunks);
    for (auto& count : remaining) {
        count.store(workers, std::memory_order_relaxed);
    }
    try {
        on_workers(workers, [&](unsigned w) {
            for (std::size_t k = 0; k < chunks; ++k) {
                const Range mine = share(chunk(bytes, k), w, workers);
                std::memcpy(staging + mine.begin, source + mine.begin, mine.end - mine.begin);
                remaining[k].fetch_sub(1, std::memory_order_acq_rel);
                if (w != 0) {
                    remaining[k].notify_one();
                    continue;
                }
                for (unsigned left = remaining[k].load(std::memory_order_acquire); left != 0;
                     left = remaining[k].load(std::memory_order_acquire)) {
                    remaining[k].wait(left, std::memory_order_acquire);
                }
                const Range r = chunk(bytes, k);
                backend().copy_async(target + r.begin, staging + r.begin, r.end - r.begin,
                                     stream.native());
            }
        });
    } catch (...) {
        release_staging_after(staging, bytes, stream);
        throw;
    }
    release_staging_after(staging, bytes, stream);
}

void staged_download(void* host, const void* device, std::size_t bytes, StreamView stream) {
    if (bytes == 0) {
        return;
    }
    auto* staging = static_cast<std::byte*>(acquire_staging(bytes));
    const auto* source = static_cast<const std::byte*>(device);
    auto* target = static_cast<std::byte*>(host);
    const std::size_t chunks = (bytes + chunk_bytes - 1) / chunk_bytes;
    std::vector<Event> arrived;
    arrived.reserve(chunks);
    try {
        for (std::size_t k = 0; k < chunks; ++k) {
            const Range r = chunk(bytes, k);
            backend().copy_async(staging + r.begin, source + r.begin, r.end - r.begin,
                                 stream.native());
            arrived.emplace_back(EventFlags{.disable_timing = true}).record(stream);
        }
    } catch (...) {
        release_staging_after(staging, bytes, stream);
        throw;
    }
    // Each worker copies its share of chunk k out as soon as chunk k has arrived.
    const unsigned workers = worker_count(bytes);
    try {
        on_workers(workers, [&](unsigned w) {
            for (std::size_t k = 0; k < chunks; ++k) {
                arrived[k].synchronize();
                const Range r = share(chunk(bytes, k), w, workers);
                std::memcpy(target + r.begin, staging + r.begin, r.end - r.begin);
            }
        });
    } catch (...) {
        release_staging_after(staging, bytes, stream);
        throw;
    }
    release_staging_after(staging, bytes, stream);
}

}  // namespace kiln::detail
