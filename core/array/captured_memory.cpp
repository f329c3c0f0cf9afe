#include "captured_memory.hpp"

#include "../backend.hpp"
#include "../captures.hpp"
#include "../lifetime.hpp"

#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kiln::detail {

namespace {

using Releases = std::vector<std::function<void()>>;

std::mutex holds_mutex;
std::unordered_map<void*, Releases>& holds() {
    static auto& by_stream = *new std::unordered_map<void*, Releases>();
    return by_stream;
}

}  // namespace

bool hold_for_capture(StreamView stream, const std::function<void()>& release) {
    void* const origin = capture_origin(stream);
    if (origin == nullptr) {
        return false;
    }
    const std::scoped_lock lock(holds_mutex);
    holds()[origin].push_back(release);
    return true;
}

std::shared_ptr<void> take_capture_holds(StreamView stream) {
    Releases taken;
    {
        const std::scoped_lock lock(holds_mutex);
        const auto found = holds().find(stream.native());
        if (found == holds().end()) {
            return nullptr;
        }
        taken = std::move(found->second);
        holds().erase(found);
    }
    const int device = stream.device();
    return {new Releases(std::move(taken)), [device](void* held) {
                const auto* releases = static_cast<Releases*>(held);
                if (!process_exiting()) {
                    try {
                        backend().synchronize_device(device);
                        for (const auto& release : *releases) {
                            release();
                        }
                    } catch (...) {  // NOLINT(bugprone-empty-catch): a deleter cannot report it
                    }
                }
                delete releases;
            }};
}

}  // namespace kiln::detail
