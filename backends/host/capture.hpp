// One graph capture on the host, as CUDA captures across streams: the stream that began it, and
// every stream forked into it by waiting on an event recorded in it, record their tasks into one
// list, in the order they were queued. A dependency between captured tasks (program order on a
// stream, an event waited on) always points from an earlier task to a later one, so the graph
// replays that list in order. The capture ends only once each forked stream's work is joined
// back: waited on, through an event, by another stream of the capture.
#pragma once

#include "stream_queue.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace kiln::detail::host {

class Capture {
public:
    // Begun on `origin`, whose handle is `handle` (for error messages).
    Capture(const std::shared_ptr<StreamState>& origin, void* handle);

    [[nodiscard]] bool began_on(const StreamState& stream) const;

    // Records a task of `member` (the origin or a forked stream); returns how many tasks and
    // waits that member has queued in the capture, which an event recorded after it marks.
    std::uint64_t add(const StreamState& member, Task task);
    // `member` (handle `handle`) joins the capture, forked from it by an event wait.
    void fork(const std::shared_ptr<StreamState>& member, void* handle);
    // `waiter` waits on an event marking `recorder`'s first `count` tasks: those are joined, and
    // the wait is a step of the waiter's that must be joined in turn.
    void join(const StreamState& waiter, const StreamState& recorder, std::uint64_t count);

    // Ends the capture for every stream in it and returns the tasks. Error naming a forked stream
    // whose last work no other stream of the capture waited for (CUDA:
    // cudaErrorStreamCaptureUnjoined); every stream has left the capture even then.
    [[nodiscard]] std::vector<Task> end();

private:
    struct Member {
        std::weak_ptr<StreamState> stream;
        const StreamState* identity = nullptr;
        void* handle = nullptr;
        std::uint64_t queued = 0;
        std::uint64_t joined = 0;
    };

    // With mutex_ held.
    [[nodiscard]] Member& member(const StreamState& stream);

    mutable std::mutex mutex_;
    bool ended_ = false;
    // The origin first, then the forked streams in the order they joined.
    std::vector<Member> members_;
    std::vector<Task> tasks_;
};

}  // namespace kiln::detail::host
