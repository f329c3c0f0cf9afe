#include "call_context.hpp"

#include "backend.hpp"
#include "unreported_error.hpp"

#include <kiln/device.hpp>
#include <kiln/error.hpp>
#include <kiln/event.hpp>
#include <kiln/stream.hpp>

#include <algorithm>
#include <mutex>
#include <set>
#include <string>
#include <utility>

namespace kiln::detail {

int call_device(std::optional<StreamView> given, std::optional<int> arrays) {
    if (given && given->device() != StreamView::any_device) {
        return Device(given->device()).id();  // Error for a device that does not exist
    }
    return arrays ? *arrays : current_device();
}

StreamView call_stream(std::string_view function, int device, std::optional<StreamView> given) {
    if (!given) {
        return current_stream_of(device);
    }
    const StreamView stream = given->or_device(device);
    if (stream.device() != device) {
        throw Error("kiln: " + std::string(function) + ": the stream belongs to device " +
                    std::to_string(stream.device()) + " but the call runs on device " +
                    std::to_string(device));
    }
    return stream;
}

StreamView call_context(std::string_view function, std::optional<StreamView> given,
                        std::optional<int> arrays) {
    return call_stream(function, call_device(given, arrays), given);
}

namespace {

// Pairs (device, peer) whose peer access kiln enabled; never forgotten, as enabling lasts.
struct EnabledPeers {
    std::mutex mutex;
    std::set<std::pair<int, int>> pairs;
};

EnabledPeers& enabled_peers() {
    static auto& peers = *new EnabledPeers();
    return peers;
}

}  // namespace

// Whether the devices can reach each other is asked every time (it is a cheap query, and the
// host backend's answer can change in tests); enabling is done once per pair.
bool reachable(int device, int owner) {
    if (owner == device) {
        return true;
    }
    Backend& gpu = backend();
    if (!gpu.can_access_peer(device, owner)) {
        return false;
    }
    auto& peers = enabled_peers();
    const std::scoped_lock lock(peers.mutex);
    if (peers.pairs.insert({device, owner}).second) {
        try {
            gpu.enable_peer_access(device, owner);
        } catch (...) {
            peers.pairs.erase({device, owner});
            throw;
        }
    }
    return true;
}

void reach(std::string_view function, std::string_view name, const ndarray& array, int device) {
    if (!reachable(device, array.device())) {
        throw Error("kiln: " + std::string(function) + ": argument '" + std::string(name) +
                    "' is on device " + std::to_string(array.device()) + ", which device " +
                    std::to_string(device) +
                    " (where the call runs) cannot access; move it there with to_device");
    }
}

namespace {
// Makes `waiter` wait for the work queued so far on `producer`, a stream of another device.
void order_after(StreamView waiter, StreamView producer) {
    Event event(Device(producer.device()), {.disable_timing = true});
    event.record(producer);
    wait_event(waiter, event);
}
}  // namespace

void CrossDeviceOrder::after(int device) {
    if (device == stream_.device() ||
        std::find(others_.begin(), others_.end(), device) != others_.end()) {
        return;
    }
    order_after(stream_, current_stream_of(device));
    others_.push_back(device);
}

void CrossDeviceOrder::reach(std::string_view function, std::string_view name,
                             const ndarray& array) {
    detail::reach(function, name, array, stream_.device());
    after(array.device());
}

void CrossDeviceOrder::done() {
    for (const int other : std::exchange(others_, {})) {
        order_after(current_stream_of(other), stream_);
    }
}

CrossDeviceOrder::~CrossDeviceOrder() {
    if (others_.empty()) {
        return;
    }
    try {
        done();
    } catch (...) {
        keep_unreported_error(std::current_exception());
    }
}

std::vector<int> other_devices(std::span<const Argument> args, std::span<const ndarray> outputs,
                               int device) {
    std::vector<int> others;
    const auto note = [&](const ndarray& array) {
        if (array.device() != device &&
            std::find(others.begin(), others.end(), array.device()) == others.end()) {
            others.push_back(array.device());
        }
    };
    for (const Argument& argument : args) {
        if (const auto* array = std::get_if<ndarray>(&argument)) {
            note(*array);
        }
    }
    for (const ndarray& out : outputs) {
        note(out);
    }
    return others;
}

bool all_on_device(std::span<const Argument> args, std::span<const ndarray> outputs,
                   int device) noexcept {
    for (const Argument& argument : args) {
        if (const auto* array = std::get_if<ndarray>(&argument);
            array != nullptr && array->device() != device) {
            return false;
        }
    }
    return std::all_of(outputs.begin(), outputs.end(),
                       [device](const ndarray& out) { return out.device() == device; });
}

std::optional<int> first_array_device(std::span<const Argument> args,
                                      std::span<const ndarray> outputs) {
    for (const Argument& argument : args) {
        if (const auto* array = std::get_if<ndarray>(&argument)) {
            return array->device();
        }
    }
    if (!outputs.empty()) {
        return outputs.front().device();
    }
    return std::nullopt;
}

}  // namespace kiln::detail
