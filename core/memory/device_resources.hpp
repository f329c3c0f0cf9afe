// The resources at the bottom of kiln's pools: device memory, pinned host memory, and the
// event-based stream ordering the device pool uses.
#pragma once

#include "../backend.hpp"

#include <kiln/memory_resource.hpp>
#include <kiln/pool_resource.hpp>

#include <mutex>
#include <unordered_map>

namespace kiln::detail {

// Plain device memory of one device (cudaMalloc / hipMalloc). Full device: OutOfMemory.
class DeviceResource final : public MemoryResource {
public:
    explicit DeviceResource(int device) : device_(device) {}

private:
    void* do_allocate(std::size_t bytes, StreamView stream) override;
    void do_deallocate(void* ptr, std::size_t bytes, StreamView stream) override;

    int device_;
};

// Page-locked host memory (cudaMallocHost / hipHostMalloc).
class PinnedResource final : public MemoryResource {
private:
    void* do_allocate(std::size_t bytes, StreamView stream) override;
    void do_deallocate(void* ptr, std::size_t bytes, StreamView stream) override;
};

// Orders streams of one device with one reusable event per producer stream: record it on the
// producer, make the waiter wait on it. A producer's event goes when its stream is retired.
class EventStreamOrder final : public StreamOrder {
public:
    explicit EventStreamOrder(int device) : device_(device) {}
    // Destroys its events, unless the process is exiting (no vendor call runs then).
    ~EventStreamOrder() override;
    EventStreamOrder(const EventStreamOrder&) = delete;
    EventStreamOrder& operator=(const EventStreamOrder&) = delete;
    EventStreamOrder(EventStreamOrder&&) = delete;
    EventStreamOrder& operator=(EventStreamOrder&&) = delete;
    void make_wait(StreamView waiter, StreamView producer) override;
    [[nodiscard]] bool retired(StreamView stream) const override { return stream_retired(stream); }
    void forget(StreamView stream) noexcept override;

private:
    int device_;
    std::mutex mutex_;
    std::unordered_map<StreamView, void*> events_;
};

// For host memory whose users are done with it when they free it: nothing to order.
class NoStreamOrder final : public StreamOrder {
public:
    void make_wait(StreamView /*waiter*/, StreamView /*producer*/) override {}
    [[nodiscard]] bool retired(StreamView stream) const override { return stream_retired(stream); }
};

}  // namespace kiln::detail
