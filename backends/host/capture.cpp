#include "capture.hpp"

#include "handle_text.hpp"

#include <kiln/error.hpp>

#include <algorithm>
#include <string>
#include <utility>

namespace kiln::detail::host {

Capture::Capture(const std::shared_ptr<StreamState>& origin, void* handle) {
    members_.push_back({origin, origin.get(), handle});
}

bool Capture::began_on(const StreamState& stream) const {
    const std::scoped_lock lock(mutex_);
    return members_.front().identity == &stream;
}

Capture::Member& Capture::member(const StreamState& stream) {
    const auto found = std::find_if(members_.begin(), members_.end(),
                                    [&](const Member& m) { return m.identity == &stream; });
    if (found == members_.end()) {
        throw Error("kiln: graph capture: a host stream that is not part of the capture");
    }
    return *found;
}

std::uint64_t Capture::add(const StreamState& member, Task task) {
    const std::scoped_lock lock(mutex_);
    tasks_.push_back(std::move(task));
    return ++this->member(member).queued;
}

void Capture::fork(const std::shared_ptr<StreamState>& member, void* handle) {
    const std::scoped_lock lock(mutex_);
    if (ended_) {
        throw Error("kiln: stream_wait_event: host stream " + handle_text(handle) +
                    " waits on an event recorded during a graph capture that has ended; such "
                    "an event marks work that runs only when the graph is launched");
    }
    members_.push_back({member, member.get(), handle});
}

void Capture::join(const StreamState& waiter, const StreamState& recorder, std::uint64_t count) {
    if (&waiter == &recorder) {
        return;  // a stream's own order
    }
    const std::scoped_lock lock(mutex_);
    Member& joined = member(recorder);
    joined.joined = std::max(joined.joined, count);
}

std::vector<Task> Capture::end() {
    std::vector<Member> members;
    std::vector<Task> tasks;
    {
        const std::scoped_lock lock(mutex_);
        ended_ = true;
        members = members_;
        tasks = std::move(tasks_);
    }
    for (const Member& m : members) {
        if (const auto stream = m.stream.lock()) {
            stream->leave_capture(*this);
        }
    }
    for (std::size_t i = 1; i < members.size(); ++i) {
        const Member& m = members[i];
        if (m.queued > m.joined) {
            throw Error("kiln: end_capture: host stream " + handle_text(m.handle) +
                        " was forked into the capture of stream " +
                        handle_text(members.front().handle) +
                        " (it waited on an event recorded there), but its last " +
                        std::to_string(m.queued - m.joined) +
                        " task(s) were not joined back: record an event after them and make "
                        "the capturing stream wait on it before ending the capture (CUDA "
                        "refuses it too: cudaErrorStreamCaptureUnjoined)");
        }
    }
    return tasks;
}

}  // namespace kiln::detail::host
