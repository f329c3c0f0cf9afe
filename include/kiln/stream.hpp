/// @file
/// GPU streams (CuPy's cupy.cuda.Stream): owning streams, views of any stream, and the current
/// stream of each thread and device.
#pragma once

#include <kiln/device.hpp>
#include <kiln/event.hpp>
#include <kiln/graph.hpp>
#include <kiln/stream_view.hpp>

#include <functional>
#include <optional>

namespace kiln {

/// The legacy default stream, which synchronizes with every other blocking stream.
[[nodiscard]] constexpr StreamView null_stream() noexcept {
    return StreamView{};
}
/// The calling thread's own default stream (CUDA's and HIP's per-thread default stream).
[[nodiscard]] StreamView per_thread_stream();

/// The stream kiln uses on this thread for the current device: the innermost StreamGuard's, else
/// the null stream. The view names the device.
[[nodiscard]] StreamView current_stream();

// Operations on any stream, including external ones wrapped in a StreamView (one that names no
// device is taken to be the current device's). A stream may wait on another device's event.
/// Waits until the work queued on `stream` is done. Operations on streams take any stream,
/// including external ones wrapped in a StreamView (one that names no device is taken to be the
/// current device's).
void synchronize(StreamView stream);
/// Whether the work queued on `stream` is done, without waiting.
[[nodiscard]] bool done(StreamView stream);
/// Makes work queued on `stream` after this call wait for `event`, without blocking the host; the
/// event may be another device's.
void wait_event(StreamView stream, const Event& event);
/// Runs `function` on a runtime thread once the work queued so far is done. It must not call into
/// the GPU runtime; an exception it throws is reported on stderr.
void launch_host_func(StreamView stream, std::function<void()> function);

/// An owning, move-only stream of one device: the one named, else the one current when it was
/// made. Its view names that device, so work given the stream runs there.
class Stream {
public:
    /// non_blocking: does not synchronize with the null stream. priority: lower is more urgent;
    /// clamped to the device's range (Device::properties()); none means the default.
    explicit Stream(bool non_blocking = false, std::optional<int> priority = std::nullopt);
    /// A stream of `device`; the other arguments as above.
    explicit Stream(const Device& device, bool non_blocking = false,
                    std::optional<int> priority = std::nullopt);
    ~Stream();
    /// Takes over the stream; `other` is left empty.
    Stream(Stream&& other) noexcept;
    /// Destroys this stream and takes over `other`'s.
    Stream& operator=(Stream&& other) noexcept;
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    /// A non-owning view of this stream that names its device.
    [[nodiscard]] StreamView view() const;
    /// The same as view(), so a Stream goes wherever a StreamView does.
    operator StreamView() const { return view(); }  // NOLINT(google-explicit-constructor)
    /// The index of the stream's device.
    [[nodiscard]] int device() const noexcept { return device_; }
    /// The priority after clamping (lower is more urgent).
    [[nodiscard]] int priority() const noexcept { return priority_; }

    /// Waits until the work queued on this stream is done.
    void synchronize() const { kiln::synchronize(view()); }
    /// Whether the work queued on this stream is done, without waiting.
    [[nodiscard]] bool done() const { return kiln::done(view()); }
    /// Makes later work on this stream wait for `event`.
    void wait_event(const Event& event) const { kiln::wait_event(view(), event); }
    /// Runs `function` once the work queued so far is done (see kiln::launch_host_func).
    void launch_host_func(std::function<void()> function) const {
        kiln::launch_host_func(view(), std::move(function));
    }
    /// A new event recorded on this stream now.
    [[nodiscard]] Event record() const;

    /// Captures the work queued on this stream until end_capture() into a graph instead of
    /// running it.
    void begin_capture() const;
    /// Ends the capture begun by begin_capture() and returns what it recorded.
    [[nodiscard]] Graph end_capture() const;

private:
    void* native_ = nullptr;
    int device_ = 0;
    int priority_ = 0;
};

/// A stream kiln did not create (CuPy's cupy.cuda.ExternalStream), adopted while this object
/// lives. kiln never destroys it. Memory that kiln's pools free on a stream stays ordered after
/// that stream's work, so the pools must hear when a stream ends: end the ExternalStream (it
/// synchronizes the stream and releases the pools' claims on it) before destroying the stream.
/// A bare StreamView of such a stream is fine for work that frees no kiln memory on it.
class ExternalStream {
public:
    /// `native`: a cudaStream_t or hipStream_t of `device` (default: the current device); not the
    /// null stream.
    explicit ExternalStream(void* native);
    /// Adopts `native`, a stream of `device`.
    ExternalStream(void* native, const Device& device);
    ~ExternalStream();
    /// Takes over the adoption; `other` is left empty.
    ExternalStream(ExternalStream&& other) noexcept;
    /// Ends this adoption and takes over `other`'s.
    ExternalStream& operator=(ExternalStream&& other) noexcept;
    ExternalStream(const ExternalStream&) = delete;
    ExternalStream& operator=(const ExternalStream&) = delete;

    /// A non-owning view of the stream that names its device.
    [[nodiscard]] StreamView view() const;
    /// The same as view().
    operator StreamView() const { return view(); }  // NOLINT(google-explicit-constructor)

private:
    void* native_ = nullptr;
    int device_ = 0;
};

/// Makes `stream` the current stream of its thread for its device (the current device where the
/// view names none) while in scope; nests (CuPy's `with stream:`).
class StreamGuard {
public:
    /// Makes `stream` current until the guard goes out of scope.
    explicit StreamGuard(StreamView stream);
    /// For a kiln Stream: current on the stream's own device, whatever device is current now.
    explicit StreamGuard(const Stream& stream);
    ~StreamGuard();
    StreamGuard(const StreamGuard&) = delete;
    StreamGuard& operator=(const StreamGuard&) = delete;
    StreamGuard(StreamGuard&&) = delete;
    StreamGuard& operator=(StreamGuard&&) = delete;

private:
    int device_;
    StreamView previous_;
};

}  // namespace kiln
