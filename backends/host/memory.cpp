#include "memory.hpp"

#include <kiln/error.hpp>

#include <cstdlib>
#include <fstream>
#include <string>

namespace kiln::detail::host {

void* allocate(std::size_t bytes) {
    const std::size_t rounded = (std::max<std::size_t>(bytes, 1) + allocation_alignment - 1) /
                                allocation_alignment * allocation_alignment;
    // More than the machine has free fails as a GPU's allocation does, rather than committing
    // memory that would swap or meet the OOM killer later (and AddressSanitizer aborts on it).
    const std::size_t large = std::size_t{1} << 30;
    if (rounded >= large) {
        if (const auto [free, total] = memory_info(); rounded > free) {
            throw OutOfMemory(bytes, total - free, total);
        }
    }
    void* ptr = std::aligned_alloc(allocation_alignment, rounded);
    if (ptr == nullptr) {
        const auto [free, total] = memory_info();
        throw OutOfMemory(bytes, total - free, total);
    }
    return ptr;
}

void deallocate(void* ptr) noexcept {
    std::free(ptr);  // NOLINT(cppcoreguidelines-no-malloc): pairs with aligned_alloc
}

std::pair<std::size_t, std::size_t> memory_info() {
    std::ifstream meminfo("/proc/meminfo");
    std::size_t total = 0;
    std::size_t available = 0;
    std::string key;
    std::size_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit) {
        if (key == "MemTotal:") {
            total = kib * 1024;
        } else if (key == "MemAvailable:") {
            available = kib * 1024;
        }
    }
    return {std::min(available, total), total};
}

}  // namespace kiln::detail::host
