// The device and stream one public call runs on, resolved once where the call enters kiln and
// passed down as one StreamView that names both. Nothing below an entry reads the current device;
// the backend makes the stream's device current for each vendor call (core/backend.hpp).
#pragma once

#include <kiln/argument.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/stream_view.hpp>

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace kiln::detail {

// The device of a call: the given stream's, else `arrays` (the first array's device), else the
// current device.
[[nodiscard]] int call_device(std::optional<StreamView> given, std::optional<int> arrays);

// The stream a call on `device` runs on, naming that device: `given`, else the current stream of
// `device`. Error when `given` belongs to another device.
[[nodiscard]] StreamView call_stream(std::string_view function, int device,
                                     std::optional<StreamView> given);

// Both: the stream, on the device call_device picks, of a call on an array of `device`.
[[nodiscard]] StreamView call_context(std::string_view function, std::optional<StreamView> given,
                                      std::optional<int> arrays);

// The current stream of `device` on this thread (kiln::current_stream is the current device's).
[[nodiscard]] StreamView current_stream_of(int device);

// CuPy's rule for memory of `owner` that a kernel on `device` reads or writes: true when it is the
// same device; where the devices can reach each other, peer access is enabled (once per pair)
// and true; false where they cannot, so that the caller refuses before any launch.
[[nodiscard]] bool reachable(int device, int owner);

// reachable, or Error naming `function`, the argument `name` and both devices.
void reach(std::string_view function, std::string_view name, const ndarray& array, int device);

// Orders work on `stream` that uses memory of other devices (peer access) as work on one device
// is ordered: the stream first waits for the work queued so far on each other device's current
// stream, and after done() those streams wait for the stream's work (also when the call throws
// after queuing some: the destructor does it then). With no other device it does nothing.
class CrossDeviceOrder {
public:
    explicit CrossDeviceOrder(StreamView stream) : stream_(stream) {}
    ~CrossDeviceOrder();
    CrossDeviceOrder(const CrossDeviceOrder&) = delete;
    CrossDeviceOrder& operator=(const CrossDeviceOrder&) = delete;
    CrossDeviceOrder(CrossDeviceOrder&&) = delete;
    CrossDeviceOrder& operator=(CrossDeviceOrder&&) = delete;
    // The work to come on the stream uses memory of `device`.
    void after(int device);
    // reach(), then after() the array's device.
    void reach(std::string_view function, std::string_view name, const ndarray& array);
    void done();

private:
    StreamView stream_;
    std::vector<int> others_;
};

// The devices other than `device` that arrays among `args` and `outputs` live on.
[[nodiscard]] std::vector<int> other_devices(std::span<const Argument> args,
                                             std::span<const ndarray> outputs, int device);

// Whether every array among `args` and `outputs` lives on `device`.
[[nodiscard]] bool all_on_device(std::span<const Argument> args, std::span<const ndarray> outputs,
                                 int device) noexcept;

// The device of the first array among `args`, then `outputs`; none when there is none.
[[nodiscard]] std::optional<int> first_array_device(std::span<const Argument> args,
                                                    std::span<const ndarray> outputs = {});

}  // namespace kiln::detail
