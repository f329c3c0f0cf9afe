#include "event.hpp"

#include "capture.hpp"

#include <kiln/error.hpp>

#include <string>

#include <chrono>

namespace kiln::detail::host {

namespace {

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

void HostEvent::record(Streams& streams, void* stream) {
    auto mark = std::make_shared<Mark>();
    const auto queue = streams.queue(stream);
    mark->stream = queue->state();
    mark->capture = queue->capture();
    const bool timed = !flags_.disable_timing;
    mark->number = streams.push(stream, [mark, timed] {
        if (timed) {
            mark->nanoseconds.store(now_ns(), std::memory_order_release);
        }
    });
    const std::scoped_lock lock(mutex_);
    mark_ = std::move(mark);
}

std::shared_ptr<HostEvent::Mark> HostEvent::mark() const {
    const std::scoped_lock lock(mutex_);
    return mark_;
}

std::shared_ptr<HostEvent::Mark> HostEvent::reached_mark(const char* call) const {
    auto mark = this->mark();
    if (mark && mark->capture) {
        throw Error(std::string("kiln: event ") + call +
                    ": the event was recorded during a graph capture, where it marks work that "
                    "runs only when the graph is launched (CUDA refuses it too: "
                    "cudaErrorCapturedEvent)");
    }
    return mark;
}

bool HostEvent::done() const {
    const auto mark = reached_mark("query");
    return !mark || mark->stream->done(mark->number);
}

void HostEvent::synchronize() const {
    if (on_stream_worker()) {
        throw Error(
            "kiln: event synchronize was called from a host function running on a host "
            "stream, where it may wait for itself; CUDA refuses it too "
            "(cudaErrorNotPermitted)");
    }
    const auto mark = reached_mark("synchronize");
    if (!mark) {
        return;
    }
    mark->stream->wait(mark->number);
    if (const std::exception_ptr error = mark->stream->take_error()) {
        std::rethrow_exception(error);
    }
}

void HostEvent::make_wait(Streams& streams, void* stream) const {
    const auto mark = this->mark();
    if (!mark) {
        return;
    }
    if (mark->capture) {
        streams.queue(stream)->wait_in_capture(mark->capture, *mark->stream, mark->number, stream);
    } else {
        (void)streams.push(stream, [mark] { mark->stream->wait(mark->number); });
    }
}

float HostEvent::elapsed_ms(const HostEvent& start, const HostEvent& end) {
    const auto first = start.mark();
    const auto second = end.mark();
    if (start.flags_.disable_timing || end.flags_.disable_timing) {
        throw Error("kiln: elapsed_time: an event was created with disable_timing");
    }
    if (!first || !second) {
        throw Error("kiln: elapsed_time: an event was never recorded");
    }
    const std::int64_t from = first->nanoseconds.load(std::memory_order_acquire);
    const std::int64_t to = second->nanoseconds.load(std::memory_order_acquire);
    if (from < 0 || to < 0) {
        throw Error("kiln: elapsed_time: an event has not completed yet");
    }
    return static_cast<float>(static_cast<double>(to - from) / 1.0e6);
}

}  // namespace kiln::detail::host
