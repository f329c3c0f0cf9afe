/// @file
/// The interface every kiln allocator implements, like RMM's device_memory_resource: the device
/// resource, the pool and the adaptors (statistics, limit, logging) that wrap one another.
#pragma once

#include <kiln/stream_view.hpp>

#include <cstddef>

namespace kiln {

/// Allocates and frees memory in the order of a stream. Not copyable and not movable: adaptors and
/// pools refer to their upstream resource by address.
///
/// allocate(0) returns nullptr and deallocate(nullptr, ...) does nothing, without reaching the
/// implementation. A failed allocation throws OutOfMemory. deallocate takes the size and stream
/// the memory is freed with; resources may check the size against the allocation.
class MemoryResource {
public:
    MemoryResource() = default;
    MemoryResource(const MemoryResource&) = delete;
    MemoryResource(MemoryResource&&) = delete;
    MemoryResource& operator=(const MemoryResource&) = delete;
    MemoryResource& operator=(MemoryResource&&) = delete;
    virtual ~MemoryResource() = default;

    /// `bytes` of memory for use in the order of `stream`; nullptr for 0 bytes.
    [[nodiscard]] void* allocate(std::size_t bytes, StreamView stream = {}) {
        return bytes == 0 ? nullptr : do_allocate(bytes, stream);
    }

    /// Frees `ptr`, of `bytes`, after the work queued so far on `stream`; nothing for nullptr.
    void deallocate(void* ptr, std::size_t bytes, StreamView stream = {}) {
        if (ptr != nullptr) {
            do_deallocate(ptr, bytes, stream);
        }
    }

private:
    // Called with bytes > 0; returns a non-null pointer or throws (OutOfMemory when out of memory).
    virtual void* do_allocate(std::size_t bytes, StreamView stream) = 0;
    // Called with a non-null pointer.
    virtual void do_deallocate(void* ptr, std::size_t bytes, StreamView stream) = 0;
};

}  // namespace kiln
