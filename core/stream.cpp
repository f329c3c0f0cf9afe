#include "array/captured_memory.hpp"
#include "array/pending_array.hpp"
#include "backend.hpp"
#include "call_context.hpp"
#include "captures.hpp"
#include "handle.hpp"
#include "lifetime.hpp"
#include "memory/pool_registry.hpp"
#include "profiling.hpp"
#include "unreported_error.hpp"

#include <kiln/device.hpp>
#include <kiln/error.hpp>
#include <kiln/stream.hpp>

#include <algorithm>
#include <exception>
#include <mutex>
#include <unordered_set>
#include <utility>
#include <vector>

namespace kiln {

namespace {

// The current stream of this thread, per device index.
thread_local std::vector<StreamView> current_streams;

StreamView& current_slot(int device) {
    const auto index = static_cast<std::size_t>(device);
    if (current_streams.size() <= index) {
        current_streams.resize(index + 1);
    }
    return current_streams[index];
}

int clamped_priority(const DeviceProperties& p, std::optional<int> priority) {
    // Lower is more urgent: the range runs from greatest (smallest) to least (largest).
    const int value = priority.value_or(0);
    return std::clamp(value, p.greatest_stream_priority, p.least_stream_priority);
}

}  // namespace

// Streams that kiln destroyed, each after it finished its work, until a new stream reuses the
// handle. Memory freed under such a handle is idle: no later stream needs to wait for it.
namespace {
std::mutex retired_mutex;
std::unordered_set<void*>& retired() {
    static auto& handles = *new std::unordered_set<void*>();
    return handles;
}
}  // namespace

bool detail::stream_retired(StreamView stream) {
    if (stream.native() == nullptr) {  // the legacy stream is never destroyed
        return false;
    }
    const std::scoped_lock lock(retired_mutex);
    return retired().contains(stream.native());
}

StreamView per_thread_stream() {
    return StreamView{detail::backend().per_thread_stream()};
}

StreamView detail::current_stream_of(int device) {
    const StreamView slot = current_slot(device);
    return StreamView{slot.native(), device};
}

StreamView current_stream() {
    return detail::current_stream_of(detail::current_device());
}

namespace {
// A stream named without its device is the current device's.
StreamView on_its_device(StreamView stream) {
    return stream.or_device(detail::current_device());
}
}  // namespace

void synchronize(StreamView stream) {
    const detail::ProfileRange range("kiln: stream synchronize");
    const StreamView on = on_its_device(stream);
    detail::run_pending_on(on);
    detail::backend().synchronize_stream(on);
}

// Work deferred on the stream is queued work: it is launched, so that it is not done yet.
bool done(StreamView stream) {
    const StreamView on = on_its_device(stream);
    detail::run_pending_on(on);
    return detail::backend().stream_done(on);
}

// The event may be of another device: a stream may wait on any device's event.
void wait_event(StreamView stream, const Event& event) {
    if (!event.recorded()) {
        return;  // nothing to wait for, as on a GPU
    }
    const StreamView on = on_its_device(stream);
    detail::run_pending_on(on);
    detail::backend().stream_wait_event(on, event.native());
    detail::note_event_waited(on, event.native());
}

void launch_host_func(StreamView stream, std::function<void()> function) {
    if (!function) {
        throw Error("kiln: launch_host_func: the function is empty");
    }
    const StreamView on = on_its_device(stream);
    detail::run_pending_on(on);
    detail::backend().launch_host_func(on, std::move(function));
}

namespace {

// A handle that names a live stream from now on, though it may have been retired before.
void adopt(void* native) {
    const std::scoped_lock lock(retired_mutex);
    retired().erase(native);
}

// Ends kiln's use of a stream: once its work is done, memory freed on it is idle. The pools
// forget the stream even when its work failed, and the failure is rethrown after.
void retire(StreamView stream) {
    std::exception_ptr failure;
    try {
        detail::run_pending_on(stream);
        detail::backend().synchronize_stream(stream);
    } catch (...) {
        failure = std::current_exception();
    }
    {
        const std::scoped_lock lock(retired_mutex);
        retired().insert(stream.native());
    }
    detail::retire_stream_in_every_pool(stream);
    if (failure) {
        std::rethrow_exception(failure);
    }
}

}  // namespace

Stream::Stream(bool non_blocking, std::optional<int> priority)
    : Stream(Device::current(), non_blocking, priority) {}

Stream::Stream(const Device& device, bool non_blocking, std::optional<int> priority)
    : device_(device.id()), priority_(clamped_priority(device.properties(), priority)) {
    native_ = detail::backend().create_stream(device_, non_blocking, priority_);
    adopt(native_);
}

Stream::~Stream() {
    if (!detail::process_exiting()) {
        detail::release_quietly(native_, [device = device_](void* s) {
            // The stream goes even when its work failed; Device::synchronize reports the failure.
            try {
                retire(StreamView{s, device});
            } catch (...) {
                detail::keep_unreported_error(std::current_exception());
            }
            detail::backend().destroy_stream(StreamView{s, device});
        });
    }
}

Stream::Stream(Stream&& other) noexcept
    : native_(std::exchange(other.native_, nullptr)),
      device_(other.device_),
      priority_(other.priority_) {}

Stream& Stream::operator=(Stream&& other) noexcept {
    if (this != &other) {
        Stream old(std::move(*this));
        native_ = std::exchange(other.native_, nullptr);
        device_ = other.device_;
        priority_ = other.priority_;
    }
    return *this;
}

StreamView Stream::view() const {
    return StreamView{detail::require_native(native_, "Stream"), device_};
}

Event Stream::record() const {
    Event event{Device(device_)};
    event.record(view());
    return event;
}

void Stream::begin_capture() const {
    detail::run_pending_on(view());
    detail::backend().begin_capture(view());
    detail::begin_capture_of(view());
}

Graph Stream::end_capture() const {
    detail::run_pending_on(view());
    // The capture ends here even when the vendor's call reports it broken.
    detail::end_capture_of(view());
    // Memory the capture freed: the graph's, or released at once if there is no graph.
    std::shared_ptr<void> held = detail::take_capture_holds(view());
    return {detail::backend().end_capture(view()), device_, std::move(held)};
}

ExternalStream::ExternalStream(void* native) : ExternalStream(native, Device::current()) {}

ExternalStream::ExternalStream(void* native, const Device& device)
    : native_(native), device_(device.id()) {
    if (native == nullptr) {
        throw Error(
            "kiln: ExternalStream: the handle is null; the null stream is null_stream(), "
            "which needs no adopting");
    }
    adopt(native_);
}

ExternalStream::~ExternalStream() {
    if (!detail::process_exiting()) {
        detail::release_quietly(native_, [device = device_](void* s) {
            retire(StreamView{s, device});
        });
    }
}

ExternalStream::ExternalStream(ExternalStream&& other) noexcept
    : native_(std::exchange(other.native_, nullptr)), device_(other.device_) {}

ExternalStream& ExternalStream::operator=(ExternalStream&& other) noexcept {
    if (this != &other) {
        ExternalStream old(std::move(*this));
        native_ = std::exchange(other.native_, nullptr);
        device_ = other.device_;
    }
    return *this;
}

StreamView ExternalStream::view() const {
    return StreamView{detail::require_native(native_, "ExternalStream"), device_};
}

StreamGuard::StreamGuard(StreamView stream)
    : device_(stream.device() == StreamView::any_device ? detail::current_device()
                                                        : stream.device()),
      previous_(current_slot(device_)) {
    current_slot(device_) = stream;
}

StreamGuard::StreamGuard(const Stream& stream)
    : device_(stream.device()), previous_(current_slot(device_)) {
    current_slot(device_) = stream.view();
}

StreamGuard::~StreamGuard() {
    current_slot(device_) = previous_;
}

}  // namespace kiln
