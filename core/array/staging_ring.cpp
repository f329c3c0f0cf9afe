#include "staging_ring.hpp"

#include "streaming_copy.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace kiln::detail {

namespace {

// How far the threads of one transfer have come: the chunks the caller has queued and the chunks
// each worker has copied its share of. A failure on any thread releases every waiter.
class Progress {
public:
    explicit Progress(unsigned workers) : finished_(workers, 0) {}

    void queued(std::size_t chunks) {
        {
            const std::scoped_lock lock(mutex_);
            queued_ = chunks;
        }
        changed_.notify_all();
    }
    void finished(unsigned worker, std::size_t chunks) {
        {
            const std::scoped_lock lock(mutex_);
            finished_[worker] = chunks;
        }
        changed_.notify_all();
    }
    void fail() {
        {
            const std::scoped_lock lock(mutex_);
            failed_ = true;
        }
        changed_.notify_all();
    }

    // Each returns false, at once, when the transfer has failed.
    [[nodiscard]] bool wait_queued(std::size_t chunks) {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return failed_ || queued_ >= chunks; });
        return !failed_;
    }
    [[nodiscard]] bool wait_finished(std::size_t chunks) {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] {
            return failed_ || std::ranges::all_of(finished_, [&](auto n) { return n >= chunks; });
        });
        return !failed_;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::size_t queued_ = 0;
    std::vector<std::size_t> finished_;
    bool failed_ = false;
};

// Runs body(w) for each w < workers, on as many threads (the caller being worker 0). Rethrows
// the first exception a worker threw, once all have stopped.
template <class Body>
void on_workers(unsigned workers, Progress& progress, Body body) {
    std::vector<std::exception_ptr> failures(workers);
    auto run = [&](unsigned w) {
        try {
            body(w);
        } catch (...) {
            failures[w] = std::current_exception();
            progress.fail();
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

void ring_upload(void* device, const void* host, void* staging, const StagingPlan& plan,
                 unsigned workers, StagingQueue& queue) {
    auto* target = static_cast<std::byte*>(device);
    const auto* source = static_cast<const std::byte*>(host);
    auto* ring = static_cast<std::byte*>(staging);
    Progress progress(workers);
    on_workers(workers, progress, [&](unsigned w) {
        for (std::size_t k = 0; k < plan.chunks(); ++k) {
            const StagingChunk chunk = plan.chunk(k);
            if (k >= plan.slots()) {
                // The slot's previous chunk must be queued, then moved, before it is overwritten.
                if (!progress.wait_queued(k - plan.slots() + 1)) {
                    return;
                }
                queue.wait(chunk.slot);
            }
            const ByteRange mine = share(chunk.range, w, workers);
            std::memcpy(ring + chunk.staging + (mine.begin - chunk.range.begin),
                        source + mine.begin, mine.size());
            progress.finished(w, k + 1);
            if (w != 0) {
                continue;
            }
            if (!progress.wait_finished(k + 1)) {
                return;
            }
            queue.copy(target + chunk.range.begin, ring + chunk.staging, chunk.range.size());
            if (k + plan.slots() < plan.chunks()) {  // a later chunk reuses the slot
                queue.mark(chunk.slot);
            }
            progress.queued(k + 1);
        }
    });
}

void ring_download(void* host, const void* device, void* staging, const StagingPlan& plan,
                   unsigned workers, StagingQueue& queue) {
    auto* target = static_cast<std::byte*>(host);
    const auto* source = static_cast<const std::byte*>(device);
    auto* ring = static_cast<std::byte*>(staging);
    auto fetch = [&](std::size_t k) {
        const StagingChunk chunk = plan.chunk(k);
        queue.copy(ring + chunk.staging, source + chunk.range.begin, chunk.range.size());
        queue.mark(chunk.slot);
    };
    Progress progress(workers);
    on_workers(workers, progress, [&](unsigned w) {
        if (w == 0) {
            for (std::size_t k = 0; k < plan.slots(); ++k) {
                fetch(k);
            }
            progress.queued(plan.slots());
        }
        for (std::size_t k = 0; k < plan.chunks(); ++k) {
            const StagingChunk chunk = plan.chunk(k);
            if (!progress.wait_queued(k + 1)) {
                return;
            }
            queue.wait(chunk.slot);
            const ByteRange mine = share(chunk.range, w, workers);
            streaming_copy(target + mine.begin,
                           ring + chunk.staging + (mine.begin - chunk.range.begin), mine.size());
            progress.finished(w, k + 1);
            const std::size_t next = k + plan.slots();
            if (w != 0 || next >= plan.chunks()) {
                continue;
            }
            // The slot is free once every share of chunk k has been copied out of it.
            if (!progress.wait_finished(k + 1)) {
                return;
            }
            fetch(next);
            progress.queued(next + 1);
        }
    });
}

}  // namespace kiln::detail
