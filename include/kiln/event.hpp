/// @file
/// GPU events: markers in a stream's work, for ordering between streams and for timing
/// (CuPy's cupy.cuda.Event and get_elapsed_time).
#pragma once

#include <kiln/device.hpp>
#include <kiln/stream_view.hpp>

namespace kiln {

/// How an event is made (cupy.cuda.Event's block, disable_timing, interprocess).
struct EventFlags {
    bool block = false;           ///< synchronize() sleeps instead of spinning
    bool disable_timing = false;  ///< cheaper; such an event cannot be timed
    bool interprocess = false;    ///< shareable with other processes; needs disable_timing
};

/// An owning, move-only event. It belongs to the device whose stream last recorded it (before
/// that, the device named or current when it was made): recording it on another device's stream
/// moves it there, as an event can only mark its own device's streams, and so changes native().
/// Any stream may wait on it.
class Event {
public:
    /// An event of the current device.
    explicit Event(EventFlags flags = {});
    /// An event of `device`, made without making it current.
    explicit Event(const Device& device, EventFlags flags = {});
    ~Event();
    /// Takes over `other`'s event.
    Event(Event&& other) noexcept;
    /// Destroys this event and takes over `other`'s.
    Event& operator=(Event&& other) noexcept;
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    /// Marks the point reached by the work queued so far on `stream` (default: the current one).
    void record(StreamView stream);
    /// Records on the current stream.
    void record();
    /// Waits until the recorded work is done; reports asynchronous faults.
    void synchronize() const;
    /// Whether the recorded work is done (true for an event never recorded).
    [[nodiscard]] bool done() const;

    /// The flags it was made with.
    [[nodiscard]] const EventFlags& flags() const noexcept { return flags_; }
    /// Whether record() was called.
    [[nodiscard]] bool recorded() const noexcept { return recorded_; }
    /// The cudaEvent_t or hipEvent_t.
    [[nodiscard]] void* native() const;
    /// The index of the event's device.
    [[nodiscard]] int device() const noexcept { return device_; }

private:
    void* native_ = nullptr;
    int device_ = 0;
    EventFlags flags_;
    bool recorded_ = false;
};

/// Milliseconds between two recorded, completed, timing-enabled events. Throws Error otherwise.
[[nodiscard]] float elapsed_time(const Event& start, const Event& end);

}  // namespace kiln
