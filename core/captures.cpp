#include "captures.hpp"

#include <atomic>
#include <mutex>
#include <unordered_map>

namespace kiln::detail {

namespace {

struct Captures {
    std::mutex mutex;
    std::unordered_map<void*, void*> origin_of;    // member stream -> its capture's stream
    std::unordered_map<void*, void*> recorded_in;  // event recorded in a capture -> its stream
};

// Never destroyed: streams may be freed during static destruction.
Captures& captures() {
    static auto& all = *new Captures();
    return all;
}

// The number of members of all captures: every free asks, and reads it without the lock while
// nothing is captured.
std::atomic<int> member_count{0};

void join(Captures& all, void* stream, void* origin) {
    if (all.origin_of.try_emplace(stream, origin).second) {
        member_count.fetch_add(1, std::memory_order_release);
    }
}

}  // namespace

void begin_capture_of(StreamView origin) {
    auto& all = captures();
    const std::scoped_lock lock(all.mutex);
    join(all, origin.native(), origin.native());
}

void end_capture_of(StreamView origin) {
    auto& all = captures();
    const std::scoped_lock lock(all.mutex);
    const auto of_origin = [&origin](const auto& entry) { return entry.second == origin.native(); };
    const auto left = std::erase_if(all.origin_of, of_origin);
    member_count.fetch_sub(static_cast<int>(left), std::memory_order_release);
    std::erase_if(all.recorded_in, of_origin);
}

void note_event_recorded(void* event, StreamView stream) {
    // With no capture under way no event is marked: each capture's marks go when it ends.
    if (member_count.load(std::memory_order_acquire) == 0) {
        return;
    }
    auto& all = captures();
    const std::scoped_lock lock(all.mutex);
    if (const auto member = all.origin_of.find(stream.native()); member != all.origin_of.end()) {
        all.recorded_in[event] = member->second;
    } else {
        all.recorded_in.erase(event);
    }
}

void note_event_waited(StreamView stream, void* event) {
    if (member_count.load(std::memory_order_acquire) == 0) {
        return;
    }
    auto& all = captures();
    const std::scoped_lock lock(all.mutex);
    if (const auto marked = all.recorded_in.find(event); marked != all.recorded_in.end()) {
        join(all, stream.native(), marked->second);
    }
}

void* capture_origin(StreamView stream) {
    if (member_count.load(std::memory_order_acquire) == 0) {
        return nullptr;
    }
    auto& all = captures();
    const std::scoped_lock lock(all.mutex);
    const auto member = all.origin_of.find(stream.native());
    return member == all.origin_of.end() ? nullptr : member->second;
}

bool stream_capturing(StreamView stream) {
    return capture_origin(stream) != nullptr;
}

}  // namespace kiln::detail
