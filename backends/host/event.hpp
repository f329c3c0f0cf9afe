// A host event: the point in a stream's work where it was last recorded, and the time the stream
// reached it, as a GPU event marks a stream and stamps the time.
#pragma once

#include "streams.hpp"

#include <kiln/event.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

namespace kiln::detail::host {

class HostEvent {
public:
    HostEvent(int device, EventFlags flags) : device_(device), flags_(flags) {}

    [[nodiscard]] int device() const noexcept { return device_; }

    // Marks the stream's work queued so far; the stream stamps the time when it gets there.
    void record(Streams& streams, void* stream);
    // Whether the stream has reached the mark; true for an event never recorded, as on a GPU.
    // Error for a mark recorded during a graph capture, as synchronize.
    [[nodiscard]] bool done() const;
    // Waits for the mark, then rethrows the first exception the marked stream's work threw.
    // Error from a host function, which would wait for itself, and for a mark recorded during a
    // graph capture, which the stream never reaches.
    void synchronize() const;
    // Makes `stream`'s later work wait for the mark. A mark recorded during a graph capture
    // forks `stream` into the capture, or joins it if it is in it already (capture.hpp).
    void make_wait(Streams& streams, void* stream) const;
    // Milliseconds from `start`'s mark to `end`'s. Error when either is untimed, unrecorded or
    // not yet reached.
    [[nodiscard]] static float elapsed_ms(const HostEvent& start, const HostEvent& end);

private:
    struct Mark {
        std::shared_ptr<StreamState> stream;
        // Recorded during a graph capture: `number` counts the stream's tasks in the capture.
        std::shared_ptr<Capture> capture;
        std::uint64_t number = 0;
        std::atomic<std::int64_t> nanoseconds{-1};  // steady clock, once reached
    };

    [[nodiscard]] std::shared_ptr<Mark> mark() const;
    // The mark, or Error naming `call` when it was recorded during a graph capture.
    [[nodiscard]] std::shared_ptr<Mark> reached_mark(const char* call) const;

    int device_;
    EventFlags flags_;
    mutable std::mutex mutex_;
    std::shared_ptr<Mark> mark_;
};

}  // namespace kiln::detail::host
