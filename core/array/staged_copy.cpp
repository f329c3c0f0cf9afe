#include "staged_copy.hpp"

#include "../backend.hpp"
#include "array_memory.hpp"
#include "staging_ring.hpp"

#include <kiln/event.hpp>

#include <vector>

namespace kiln::detail {

namespace {

// The ring's queue on a real stream: one event per slot, recorded again for each chunk.
class EventQueue final : public StagingQueue {
public:
    EventQueue(StreamView stream, std::size_t slots) : stream_(stream) {
        events_.reserve(slots);
        for (std::size_t i = 0; i < slots; ++i) {
            events_.emplace_back(Device(stream.device()), EventFlags{.disable_timing = true});
        }
    }

    void copy(void* target, const void* source, std::size_t bytes) override {
        backend().copy_async(target, source, bytes, stream_);
    }
    void mark(std::size_t slot) override { events_.at(slot).record(stream_); }
    void wait(std::size_t slot) override { events_.at(slot).synchronize(); }

private:
    StreamView stream_;
    std::vector<Event> events_;
};

// What is left on the stream of a transfer that returned.
enum class Left { copies, nothing };

// Runs `transfer` over a pinned ring for `plan`. The ring goes back to the pinned pool once the
// copies queued on `stream` are done, even when the transfer fails half-way; at once when it
// returns with nothing left, so that the next transfer reuses it.
template <class Transfer>
void through_ring(const StagingPlan& plan, StreamView stream, Left left, Transfer transfer) {
    void* staging = acquire_staging(plan.staging_bytes());
    try {
        EventQueue queue(stream, plan.slots());
        transfer(staging, queue);
    } catch (...) {
        release_staging_after(staging, plan.staging_bytes(), stream);
        throw;
    }
    if (left == Left::nothing) {
        release_staging(staging, plan.staging_bytes());
    } else {
        release_staging_after(staging, plan.staging_bytes(), stream);
    }
}

}  // namespace

void staged_upload(void* device, const void* host, std::size_t bytes, StreamView stream) {
    if (bytes == 0) {
        return;
    }
    const StagingPlan plan(bytes);
    through_ring(plan, stream, Left::copies, [&](void* staging, StagingQueue& queue) {
        ring_upload(device, host, staging, plan, staging_workers(bytes), queue);
    });
}

void staged_download(void* host, const void* device, std::size_t bytes, StreamView stream) {
    if (bytes == 0) {
        return;
    }
    const StagingPlan plan(bytes);
    // Every chunk has been copied out of the ring when ring_download returns.
    through_ring(plan, stream, Left::nothing, [&](void* staging, StagingQueue& queue) {
        ring_download(host, device, staging, plan, staging_workers(bytes), queue);
    });
}

}  // namespace kiln::detail
