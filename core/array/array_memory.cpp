#include "array_memory.hpp"

#include "../captures.hpp"
#include "../lifetime.hpp"
#include "captured_memory.hpp"
#include "pending_array.hpp"

#include <kiln/error.hpp>
#include <kiln/event.hpp>
#include <kiln/memory_pool.hpp>
#include <kiln/stream.hpp>

#include <deque>
#include <functional>
#include <mutex>

namespace kiln::detail {

std::shared_ptr<void> allocate_array_memory(std::size_t bytes, StreamView stream) {
    MemoryResource& resource = get_allocator(stream.device());
    void* ptr = nullptr;
    try {
        ptr = resource.allocate(bytes, stream);
    } catch (const OutOfMemory&) {
        // Memory runs short: the device's deferred expressions run, freeing the arrays that only
        // their nodes hold, and the allocation is tried once more.
        if (!run_pending_for_memory(stream.device())) {
            throw;
        }
        ptr = resource.allocate(bytes, stream);
    }
    return {ptr, [&resource, bytes, stream](void* p) {
                if (p == nullptr || process_exiting()) {
                    return;
                }
                try {
                    const auto release = [&resource, p, bytes, stream] {
                        resource.deallocate(p, bytes, stream);
                    };
                    // Asked first so that a free outside a capture builds no std::function.
                    if (!stream_capturing(stream) || !hold_for_capture(stream, release)) {
                        release();
                    }
                } catch (...) {  // NOLINT(bugprone-empty-catch): a deleter cannot report it
                }
            }};
}

namespace {

struct InFlight {
    void* buffer;
    std::size_t bytes;
    Event done;
};

std::mutex staging_mutex;
std::deque<InFlight>& in_flight() {
    static auto& buffers = *new std::deque<InFlight>();
    return buffers;
}

}  // namespace

void reclaim_finished_staging() {
    auto& pool = get_default_pinned_memory_pool();
    const std::scoped_lock lock(staging_mutex);
    auto& buffers = in_flight();
    std::erase_if(buffers, [&pool](InFlight& entry) {
        bool finished = false;
        try {
            finished = entry.done.done();
        } catch (const Error&) {  // a broken context: keep the buffer rather than reuse it
        }
        if (!finished) {
            return false;
        }
        pool.deallocate(entry.buffer, entry.bytes);
        return true;
    });
}

void* acquire_staging(std::size_t bytes) {
    reclaim_finished_staging();
    return get_default_pinned_memory_pool().allocate(bytes);
}

void release_staging(void* buffer, std::size_t bytes) {
    get_default_pinned_memory_pool().deallocate(buffer, bytes);
}

void release_staging_after(void* buffer, std::size_t bytes, StreamView stream) {
    Event done(Device(stream.device()), {.disable_timing = true});
    done.record(stream);
    const std::scoped_lock lock(staging_mutex);
    in_flight().push_back({buffer, bytes, std::move(done)});
}

}  // namespace kiln::detail
