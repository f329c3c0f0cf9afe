#include "array/pending_array.hpp"
#include "backend.hpp"
#include "captures.hpp"
#include "handle.hpp"
#include "lifetime.hpp"
#include "profiling.hpp"

#include <kiln/error.hpp>
#include <kiln/event.hpp>
#include <kiln/stream.hpp>

#include <string>
#include <utility>

namespace kiln {

namespace {

EventFlags checked(EventFlags flags) {
    if (flags.interprocess && !flags.disable_timing) {
        throw Error("kiln: Event: an interprocess event needs disable_timing = true");
    }
    return flags;
}

}  // namespace

Event::Event(EventFlags flags) : Event(Device::current(), flags) {}

Event::Event(const Device& device, EventFlags flags)
    : device_(device.id()), flags_(checked(flags)) {
    native_ = detail::backend().create_event(device_, flags_);
}

Event::~Event() {
    if (!detail::process_exiting()) {
        detail::release_quietly(native_, [](void* e) { detail::backend().destroy_event(e); });
    }
}

Event::Event(Event&& other) noexcept
    : native_(std::exchange(other.native_, nullptr)),
      device_(other.device_),
      flags_(other.flags_),
      recorded_(other.recorded_) {}

Event& Event::operator=(Event&& other) noexcept {
    if (this != &other) {
        Event old(std::move(*this));
        native_ = std::exchange(other.native_, nullptr);
        device_ = other.device_;
        flags_ = other.flags_;
        recorded_ = other.recorded_;
    }
    return *this;
}

void* Event::native() const {
    return detail::require_native(native_, "Event");
}

void Event::record(StreamView stream) {
    void* const mine = native();
    auto& gpu = detail::backend();
    const StreamView on = stream.or_device(detail::current_device());
    const int device = on.device();
    if (device != device_) {
        native_ = gpu.create_event(device, flags_);
        device_ = device;
        detail::release_quietly(mine, [](void* e) { detail::backend().destroy_event(e); });
    }
    detail::run_pending_on(on);
    gpu.record_event(native(), on);
    detail::note_event_recorded(native(), on);
    recorded_ = true;
}

void Event::record() {
    record(current_stream());
}

void Event::synchronize() const {
    const detail::ProfileRange range("kiln: event synchronize");
    detail::backend().synchronize_event(native());
}

bool Event::done() const {
    return detail::backend().event_done(native());
}

float elapsed_time(const Event& start, const Event& end) {
    for (const Event* event : {&start, &end}) {
        const char* which = event == &start ? "start" : "end";
        if (event->flags().disable_timing) {
            throw Error(std::string("kiln: elapsed_time: the ") + which +
                        " event was made with disable_timing");
        }
        if (!event->recorded()) {
            throw Error(std::string("kiln: elapsed_time: the ") + which +
                        " event has not been recorded");
        }
        if (!event->done()) {
            throw Error(std::string("kiln: elapsed_time: the ") + which +
                        " event has not completed yet; synchronize it first");
        }
    }
    if (start.device() != end.device()) {
        throw Error("kiln: elapsed_time: the start event was recorded on device " +
                    std::to_string(start.device()) + " and the end event on device " +
                    std::to_string(end.device()) + "; time with two events of one device");
    }
    return detail::backend().elapsed_ms(start.native(), end.native());
}

}  // namespace kiln
