#include "device_resources.hpp"

#include "../backend.hpp"
#include "../handle.hpp"
#include "../lifetime.hpp"
#include "../profiling.hpp"

#include <kiln/device.hpp>
#include <kiln/event.hpp>

namespace kiln::detail {

void* DeviceResource::do_allocate(std::size_t bytes, StreamView /*stream*/) {
    const ProfileRange range("kiln: device allocation");
    return backend().allocate(device_, bytes);
}

void DeviceResource::do_deallocate(void* ptr, std::size_t /*bytes*/, StreamView /*stream*/) {
    if (process_exiting()) {
        return;
    }
    backend().deallocate(device_, ptr);
}

void* PinnedResource::do_allocate(std::size_t bytes, StreamView /*stream*/) {
    const ProfileRange range("kiln: pinned allocation");
    return backend().allocate_pinned(bytes);
}

void PinnedResource::do_deallocate(void* ptr, std::size_t /*bytes*/, StreamView /*stream*/) {
    if (process_exiting()) {
        return;
    }
    backend().deallocate_pinned(ptr);
}

void EventStreamOrder::make_wait(StreamView waiter, StreamView producer) {
    auto& gpu = backend();
    // A stream that names no device is the pool's device's; an event is its producer's device's.
    producer = producer.or_device(device_);
    void* event = nullptr;
    {
        const std::scoped_lock lock(mutex_);
        auto& slot = events_[producer];
        if (slot == nullptr) {
            slot = gpu.create_event(producer.device(), {.disable_timing = true});
        }
        event = slot;
    }
    // Recording and waiting in one sequence per producer keeps the pair consistent: the pool
    // calls this under its own lock.
    gpu.record_event(event, producer);
    gpu.stream_wait_event(waiter.or_device(device_), event);
}

EventStreamOrder::~EventStreamOrder() {
    if (process_exiting()) {
        return;
    }
    for (const auto& [stream, event] : events_) {
        release_quietly(event, [](void* e) { backend().destroy_event(e); });
    }
}

// A wait already queued on the event keeps it until the wait is done, so it can go now.
void EventStreamOrder::forget(StreamView stream) noexcept {
    const std::scoped_lock lock(mutex_);
    const auto found = events_.find(stream);
    if (found == events_.end()) {
        return;
    }
    release_quietly(found->second, [](void* event) { backend().destroy_event(event); });
    events_.erase(found);
}

}  // namespace kiln::detail
