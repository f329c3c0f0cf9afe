#include "joined_streams.hpp"

#include "../../core/backend.hpp"
#include "../../core/handle.hpp"

#include <algorithm>

namespace kiln::detail::host {

namespace {

// `waiter`'s later work waits for the work queued so far on `producer`. The event goes at once:
// a wait already queued keeps what it needs.
void order_after(StreamView waiter, StreamView producer) {
    Backend& b = backend();
    NativeEvent event = b.create_event(producer.device(), {.disable_timing = true});
    try {
        b.record_event(event, producer);
        b.stream_wait_event(waiter, event);
    } catch (...) {
        release_quietly(event, [](void* e) { backend().destroy_event(e); });
        throw;
    }
    b.destroy_event(event);
}

}  // namespace

void launch_joined(StreamView first, const std::vector<StreamView>& others,
                   const std::function<void(StreamView)>& launch) {
    std::vector<StreamView> joined;
    for (const StreamView other : others) {
        if (!(other == first) && std::find(joined.begin(), joined.end(), other) == joined.end()) {
            joined.push_back(other);
        }
    }
    for (const StreamView other : joined) {
        order_after(first, other);
    }
    launch(first);
    for (const StreamView other : joined) {
        order_after(other, first);
    }
}

}  // namespace kiln::detail::host
