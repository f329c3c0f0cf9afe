#include "peak_memory.hpp"

#include <kiln/device.hpp>
#include <kiln/memory_pool.hpp>

namespace kiln::bench {

PeakMemory::PeakMemory(bool gpu) : gpu_(gpu) {
    if (gpu_) {
        Device::current().synchronize();
        get_default_memory_pool().free_all_blocks();
        base_ = get_default_memory_pool().total_bytes();
    }
}

std::optional<std::size_t> PeakMemory::bytes() const {
    if (!gpu_) {
        return std::nullopt;
    }
    return get_default_memory_pool().total_bytes() - base_;
}

}  // namespace kiln::bench
