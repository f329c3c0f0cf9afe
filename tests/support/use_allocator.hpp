// Routes the current device's arrays to a memory resource while in scope (tests of pools and of
// what runs when memory is short).
#pragma once

#include <kiln/memory_pool.hpp>

namespace kiln::test {

class UseAllocator {
public:
    explicit UseAllocator(MemoryResource& resource) { set_allocator(&resource); }
    ~UseAllocator() { set_allocator(nullptr); }
    UseAllocator(const UseAllocator&) = delete;
    UseAllocator& operator=(const UseAllocator&) = delete;
    UseAllocator(UseAllocator&&) = delete;
    UseAllocator& operator=(UseAllocator&&) = delete;
};

}  // namespace kiln::test
