#include "../array/array_memory.hpp"
#include "../backend.hpp"
#include "../env.hpp"
#include "../lifetime.hpp"
#include "device_resources.hpp"
#include "pool_limit.hpp"

#include <kiln/device.hpp>
#include <kiln/error.hpp>
#include <kiln/memory_pool.hpp>
#include <kiln/stream.hpp>

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

namespace kiln {

namespace {

int resolve(std::optional<int> device) {
    return Device(device.value_or(detail::current_device())).id();
}

// Runs `allocate`; its OutOfMemory names `device` when the resource below did not.
template <class Allocate>
void* naming_device(int device, const Allocate& allocate) {
    try {
        return allocate();
    } catch (const OutOfMemory& e) {
        if (e.device()) {
            throw;
        }
        throw OutOfMemory(e.requested(), e.used(), e.limit(), device);
    }
}

// The cap KILN_GPU_MEMORY_LIMIT sets; unset, 0 and 0% mean none, as CUPY_GPU_MEMORY_LIMIT's do.
std::size_t initial_cap(int device) {
    auto text = detail::env::get("KILN_GPU_MEMORY_LIMIT");
    if (!text) {
        return LimitResource::no_limit;
    }
    return detail::pool_limit_cap(detail::env::parse_memory_limit(
        "KILN_GPU_MEMORY_LIMIT", *text, Device(device).properties().total_memory));
}

// Per-device state that lives until the process exits: never destroyed, so no vendor call runs
// at exit.
struct DeviceMemory {
    std::once_flag made;
    std::atomic<MemoryPool*> pool{nullptr};
    std::atomic<MemoryResource*> allocator{nullptr};  // set_allocator's, or null for the pool
};

// Every device's state, made at the first use; every allocation reads it, so it is indexed
// without a lock.
struct AllDeviceMemory {
    explicit AllDeviceMemory(int device_count)
        : count(device_count), devices(static_cast<std::size_t>(device_count)) {}
    int count;
    std::vector<DeviceMemory> devices;  // never resized: DeviceMemory does not move
};

AllDeviceMemory& all_device_memory() {
    static auto& all = *new AllDeviceMemory(device_count());
    return all;
}

DeviceMemory& device_memory(int device) {
    auto& all = all_device_memory();
    if (device < 0 || device >= all.count) {
        (void)Device(device);  // the error naming the valid indices, or that there is no device
        throw Error("kiln: device " + std::to_string(device) + " appeared after the first use");
    }
    return all.devices[static_cast<std::size_t>(device)];
}

// Asked by every allocation: a made pool is read without call_once's per-thread setup.
MemoryPool& default_pool(DeviceMemory& memory, int device) {
    if (MemoryPool* pool = memory.pool.load(std::memory_order_acquire)) {
        return *pool;
    }
    std::call_once(memory.made, [&] { memory.pool = new MemoryPool(device); });
    return *memory.pool.load();
}

}  // namespace

MemoryPool::MemoryPool(std::optional<int> device)
    : device_(resolve(device)),
      device_memory_(std::make_unique<detail::DeviceResource>(device_)),
      limit_(std::make_unique<LimitResource>(*device_memory_, initial_cap(device_))),
      order_(std::make_unique<detail::EventStreamOrder>(device_)),
      pool_(std::make_unique<PoolResource>(*limit_, *order_)) {}

MemoryPool::~MemoryPool() = default;

void MemoryPool::set_limit(std::size_t bytes) {
    limit_->set_limit(detail::pool_limit_cap(bytes));
}

std::size_t MemoryPool::get_limit() const noexcept {
    return detail::pool_limit_of_cap(limit_->limit());
}

void MemoryPool::set_limit_fraction(double fraction) {
    if (!(fraction >= 0.0 && fraction <= 1.0)) {
        throw Error("kiln: MemoryPool::set_limit_fraction: " + std::to_string(fraction) +
                    " is not a fraction between 0 and 1");
    }
    const auto total = static_cast<double>(Device(device_).properties().total_memory);
    set_limit(static_cast<std::size_t>(total * fraction));
}

// The per-thread default stream is one handle naming a different stream on every thread, so the
// pool cannot order it against other streams. Its blocks are freed once it is idle, under the
// legacy stream, with which the per-thread stream synchronizes.
// A stream that names no device is the pool's device's, so that one stream has one name here.
namespace {
bool is_per_thread(StreamView stream) {
    return stream.native() == per_thread_stream().native();
}
StreamView pool_stream(StreamView stream, int device, bool per_thread) {
    const StreamView named = stream.or_device(device);
    return per_thread ? StreamView{nullptr, named.device()} : named;
}
}  // namespace

void* MemoryPool::do_allocate(std::size_t bytes, StreamView stream) {
    return naming_device(device_, [&] {
        return pool_->allocate(bytes, pool_stream(stream, device_, is_per_thread(stream)));
    });
}

void MemoryPool::do_deallocate(void* ptr, std::size_t bytes, StreamView stream) {
    const bool per_thread = is_per_thread(stream);
    if (per_thread) {
        // This thread's own stream: its work is done once synchronized.
        synchronize(stream.or_device(device_));
    }
    pool_->deallocate(ptr, bytes, pool_stream(stream, device_, per_thread));
}

PinnedMemoryPool::PinnedMemoryPool()
    : pinned_(std::make_unique<detail::PinnedResource>()),
      order_(std::make_unique<detail::NoStreamOrder>()),
      pool_(std::make_unique<PoolResource>(*pinned_, *order_)) {}

PinnedMemoryPool::~PinnedMemoryPool() = default;

void* PinnedMemoryPool::do_allocate(std::size_t bytes, StreamView stream) {
    return pool_->allocate(bytes, stream);
}

void PinnedMemoryPool::do_deallocate(void* ptr, std::size_t bytes, StreamView stream) {
    pool_->deallocate(ptr, bytes, stream);
}

MemoryAsyncPool::MemoryAsyncPool(std::optional<int> device) : device_(resolve(device)) {
    if (!detail::backend().supports_memory_pools(device_)) {
        throw Error("kiln: MemoryAsyncPool: device " + std::to_string(device_) + " (" +
                    Device(device_).properties().name +
                    ") does not support stream-ordered memory pools");
    }
}

void* MemoryAsyncPool::do_allocate(std::size_t bytes, StreamView stream) {
    return naming_device(device_, [&] {
        return detail::backend().allocate_async(bytes, StreamView{stream.native(), device_});
    });
}

void MemoryAsyncPool::do_deallocate(void* ptr, std::size_t /*bytes*/, StreamView stream) {
    if (detail::process_exiting()) {
        return;
    }
    detail::backend().deallocate_async(ptr, StreamView{stream.native(), device_});
}

MemoryPool& get_default_memory_pool() {
    return get_default_memory_pool(detail::current_device());
}

MemoryPool& get_default_memory_pool(int device) {
    return default_pool(device_memory(device), device);
}

void release_cached_memory() {
    detail::reclaim_finished_staging();
    get_default_pinned_memory_pool().free_all_blocks();
    const auto& all = all_device_memory();
    for (int device = 0; device < all.count; ++device) {
        if (MemoryPool* pool = all.devices[static_cast<std::size_t>(device)].pool.load()) {
            pool->free_all_blocks();
        }
    }
}

PinnedMemoryPool& get_default_pinned_memory_pool() {
    static auto& pool = *new PinnedMemoryPool();
    return pool;
}

void set_allocator(MemoryResource* resource) {
    device_memory(detail::current_device()).allocator = resource;
}

MemoryResource& get_allocator() {
    return get_allocator(detail::current_device());
}

MemoryResource& get_allocator(int device) {
    auto& memory = device_memory(device);
    if (auto* resource = memory.allocator.load()) {
        return *resource;
    }
    return default_pool(memory, device);
}

}  // namespace kiln
