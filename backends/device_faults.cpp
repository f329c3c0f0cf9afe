#include "device_faults.hpp"

#include <kiln/error.hpp>

#include <sstream>

namespace kiln::detail {

namespace {

std::string dims(const Dim3& d) {
    return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) +
           ")";
}

template <class T>
T& slot(std::vector<T>& by_device, int device) {
    if (by_device.size() <= static_cast<std::size_t>(device)) {
        by_device.resize(static_cast<std::size_t>(device) + 1);
    }
    return by_device[static_cast<std::size_t>(device)];
}

}  // namespace

void DeviceFaults::name_function(NativeFunction function, const char* name) {
    const std::scoped_lock lock(mutex_);
    names_[function] = name;
}

void DeviceFaults::record_launch(int device, NativeFunction function, const LaunchConfig& config) {
    const std::scoped_lock lock(mutex_);
    Launch& last = slot(last_, device);
    last = {function, config.grid, config.block, config.stream.native(), last.number + 1};
}

std::string DeviceFaults::describe(const Launch& launch) const {
    if (launch.function == nullptr) {
        return "no kernel had been launched there";
    }
    const auto name = names_.find(launch.function);
    std::ostringstream out;
    out << "the last kernel launched there was `"
        << (name == names_.end() ? std::string("(unnamed)") : name->second) << "` (launch "
        << launch.number << ": grid " << dims(launch.grid) << ", block " << dims(launch.block)
        << ", stream " << launch.stream << ")";
    return out.str();
}

void DeviceFaults::raise(int device, const char* call, int code, const std::string& text) {
    const std::scoped_lock lock(mutex_);
    const std::string where = "device " + std::to_string(device);
    std::optional<std::string>& lost = slot(lost_, device);
    if (lost) {
        throw DeviceFault("kiln: " + std::string(call) + " failed: the " + runtime_ +
                              " context of " + where + " was lost after " + *lost +
                              "; restart the process",
                          call, code, text, device);
    }
    const std::string kernel = describe(slot(last_, device));
    lost = "a kernel faulted (" + text + ", code " + std::to_string(code) + "; " + kernel + ")";
    throw DeviceFault("kiln: " + where + " faulted: " + text + " (code " + std::to_string(code) +
                          "), seen by " + call + "; " + kernel +
                          ". Launches run asynchronously, so an earlier one may be at fault: "
                          "rerun with " +
                          launch_blocking_ + "=1 to stop at the faulting launch. The " + runtime_ +
                          " context of " + where + " is lost: restart the process",
                      call, code, text, device);
}

}  // namespace kiln::detail
