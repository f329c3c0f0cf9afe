/// @file
/// A non-owning reference to a GPU stream (cudaStream_t / hipStream_t) and the device it belongs
/// to, like RMM's cuda_stream_view. Cheap to copy; the null handle is the legacy default stream. A
/// stream kiln did not create and allocates on is adopted as an ExternalStream (kiln/stream.hpp),
/// which tells kiln's pools when it ends.
#pragma once

#include <functional>

namespace kiln {

/// A non-owning view of a stream and its device (see the file's description).
class StreamView {
public:
    /// Without a device (-1), the view names the stream of whichever device a call runs on: the
    /// device of the call's arrays, else the current one. That is what the null stream means.
    static constexpr int any_device = -1;

    constexpr StreamView() noexcept = default;
    /// A view of `native` (a cudaStream_t or hipStream_t) of `device`.
    constexpr explicit StreamView(void* native, int device = any_device) noexcept
        : native_(native), device_(device) {}

    /// The vendor handle, to pass to vendor APIs or other libraries.
    [[nodiscard]] constexpr void* native() const noexcept { return native_; }
    /// The device the stream belongs to, or any_device.
    [[nodiscard]] constexpr int device() const noexcept { return device_; }
    /// Whether this is the null (legacy default) stream.
    [[nodiscard]] constexpr bool is_default() const noexcept { return native_ == nullptr; }
    /// This view, naming `device` where it names none.
    [[nodiscard]] constexpr StreamView or_device(int device) const noexcept {
        return device_ == any_device ? StreamView{native_, device} : *this;
    }

    /// The same stream: the same handle, of the same device where both name one (the null stream
    /// of one device differs from another's, and null_stream() names each).
    friend constexpr bool operator==(StreamView a, StreamView b) noexcept {
        return a.native_ == b.native_ &&
               (a.device_ == b.device_ || a.device_ == any_device || b.device_ == any_device);
    }

private:
    void* native_ = nullptr;
    int device_ = any_device;
};

}  // namespace kiln

/// @cond std_specializations
template <>
struct std::hash<kiln::StreamView> {
    std::size_t operator()(kiln::StreamView s) const noexcept {
        return std::hash<void*>{}(s.native());
    }
};
/// @endcond
