#include "last_block_counters.hpp"

#include "../../backend.hpp"
#include "../../call_context.hpp"
#include "../../captures.hpp"

#include <cstddef>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace kiln::detail {

namespace {

// Streams a device serves before its reductions take two launches again.
constexpr std::size_t counters_per_device = 4096;

struct DeviceCounters {
    unsigned int* base = nullptr;
    std::unordered_map<void*, unsigned int*> by_stream;
};

// Zeroed counters on `device`, allocated once and kept for the process: kernels may run while it
// exits.
unsigned int* allocate_counters(int device) {
    auto& gpu = backend();
    const std::size_t bytes = counters_per_device * sizeof(unsigned int);
    void* base = gpu.allocate(device, bytes);
    const std::vector<unsigned int> zeros(counters_per_device, 0);
    gpu.copy(base, zeros.data(), bytes);
    return static_cast<unsigned int*>(base);
}

}  // namespace

void* last_block_counter(StreamView stream) {
    if (stream_capturing(stream) || stream.native() == backend().per_thread_stream()) {
        return nullptr;
    }
    static std::mutex mutex;
    static auto& devices = *new std::map<int, DeviceCounters>();
    const std::scoped_lock lock(mutex);
    DeviceCounters& counters = devices[stream.device()];
    if (const auto found = counters.by_stream.find(stream.native());
        found != counters.by_stream.end()) {
        return found->second;
    }
    if (counters.by_stream.size() == counters_per_device) {
        return nullptr;
    }
    if (counters.base == nullptr) {
        counters.base = allocate_counters(stream.device());
    }
    unsigned int* const counter = counters.base + counters.by_stream.size();
    counters.by_stream.emplace(stream.native(), counter);
    return counter;
}

}  // namespace kiln::detail
