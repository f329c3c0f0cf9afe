#include "memory.hpp"

#include <kiln/error.hpp>

#include <sys/mman.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace kiln::detail::host {

namespace {

// Transparent huge pages: the usual size on x86-64 and on aarch64 with 4 KiB pages.
constexpr std::size_t huge_page = std::size_t{2} << 20;

}  // namespace

void* allocate(std::size_t bytes) {
    // Allocations of a huge page or more take whole huge pages, and ask the kernel to back them
    // with such pages: a loop streaming through 4 KiB pages loses the hardware prefetch at every
    // page boundary and needs a TLB entry per page. On the 2-core development VM (THP in
    // `madvise` mode) a float32 sum over 400 MB read 23 – 30 GB/s on 2 threads without them,
    // 32 – 40 GB/s with them.
    const bool huge = bytes >= huge_page;
    const std::size_t alignment = huge ? huge_page : allocation_alignment;
    const std::size_t rounded =
        (std::max<std::size_t>(bytes, 1) + alignment - 1) / alignment * alignment;
    // More than the machine has free fails as a GPU's allocation does, rather than committing
    // memory that would swap or meet the OOM killer later (and AddressSanitizer aborts on it).
    const std::size_t large = std::size_t{1} << 30;
    if (rounded >= large) {
        if (const auto [free, total] = memory_info(); rounded > free) {
            throw OutOfMemory(bytes, total - free, total);
        }
    }
    void* ptr = std::aligned_alloc(alignment, rounded);
    if (ptr == nullptr) {
        const auto [free, total] = memory_info();
        throw OutOfMemory(bytes, total - free, total);
    }
    if (huge) {
        // Advice only: where the kernel has no THP (EINVAL) the memory works as it is.
        (void)madvise(ptr, rounded, MADV_HUGEPAGE);
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
