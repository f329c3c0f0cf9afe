#include "array/pending_array.hpp"
#include "backend.hpp"
#include "error_message.hpp"
#include "profiling.hpp"
#include "unreported_error.hpp"

#include <kiln/error.hpp>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kiln {

namespace {

int checked_id(int id) {
    const int count = device_count();
    if (count == 0) {
        throw NoDevice("kiln: no device: " +
                       std::string(detail::without_kiln_prefix(no_device_reason())));
    }
    if (id < 0 || id >= count) {
        throw Error("kiln: device index " + std::to_string(id) + " is out of range: the " +
                    std::string(to_string(active_backend())) + " backend sees " +
                    std::to_string(count) + " device(s), valid indices are 0.." +
                    std::to_string(count - 1));
    }
    return id;
}

// Properties never change while the process runs, so each device is queried once.
const DeviceProperties& cached_properties(int id) {
    static std::mutex mutex;
    static std::vector<std::unique_ptr<DeviceProperties>> cache;
    const std::scoped_lock lock(mutex);
    if (cache.empty()) {
        cache.resize(static_cast<std::size_t>(device_count()));
    }
    auto& slot = cache.at(static_cast<std::size_t>(id));
    if (!slot) {
        slot = std::make_unique<DeviceProperties>(detail::backend().query_properties(id));
    }
    return *slot;
}

}  // namespace

int device_count() {
    try {
        return detail::backend().device_count();
    } catch (const NoDevice&) {
        return 0;
    }
}

std::string no_device_reason() {
    try {
        return detail::reason_for_no_device();
    } catch (const NoDevice& e) {
        return e.what();
    }
}

Device::Device() : Device(detail::default_device_id()) {}

Device::Device(int id) : id_(checked_id(id)) {}

Device Device::current() {
    return Device(detail::current_device());
}

void Device::use() const {
    detail::set_current_device(id_);
}

const DeviceProperties& Device::properties() const {
    return cached_properties(id_);
}

void Device::synchronize() const {
    const detail::ProfileRange range("kiln: device synchronize");
    detail::run_pending_on_device(id_);
    detail::backend().synchronize_device(id_);
    detail::rethrow_unreported_error();
}

bool Device::can_access_peer(const Device& peer) const {
    return detail::backend().can_access_peer(id_, peer.id());
}

void Device::enable_peer_access(const Device& peer) const {
    if (!can_access_peer(peer)) {
        throw Error("kiln: Device.enable_peer_access: device " + std::to_string(id_) +
                    " cannot access device " + std::to_string(peer.id()) + "'s memory" +
                    (peer.id() == id_ ? " (it is the same device)" : ""));
    }
    detail::backend().enable_peer_access(id_, peer.id());
}

// Nothing is set when the device is current already, as it usually is.
DeviceGuard::DeviceGuard(const Device& device) : previous_(detail::current_device()) {
    if (device.id() != previous_) {
        device.use();
    }
}

DeviceGuard::DeviceGuard(int device) : DeviceGuard(Device(device)) {}

// Restores the previous device also when the scope made another current (Device::use()).
DeviceGuard::~DeviceGuard() {
    try {
        if (detail::current_device() != previous_) {
            detail::set_current_device(previous_);
        }
    } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor cannot report it
    }
}

}  // namespace kiln
