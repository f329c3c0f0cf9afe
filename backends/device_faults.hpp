// A kernel fault (an illegal address, a trap) loses the device's context: every later call on
// that device returns the same sticky error. This log names the kernel launched last on each
// device, so that the fault says which launch to suspect, and remembers lost devices, so that
// later calls say the context is gone instead of repeating the vendor's error as their own.
#pragma once

#include "../core/backend.hpp"

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kiln::detail {

class DeviceFaults {
public:
    // `runtime` names the vendor runtime in messages ("CUDA", "HIP"); `launch_blocking` is its
    // variable that makes launches synchronous.
    DeviceFaults(std::string runtime, std::string launch_blocking)
        : runtime_(std::move(runtime)), launch_blocking_(std::move(launch_blocking)) {}

    void name_function(NativeFunction function, const char* name);
    void record_launch(int device, NativeFunction function, const LaunchConfig& config);

    // Throws DeviceFault for `call`'s sticky error on `device`: the first time as the fault,
    // with the last launch there; after that as "the context was lost".
    [[noreturn]] void raise(int device, const char* call, int code, const std::string& text);

private:
    struct Launch {
        NativeFunction function = nullptr;
        Dim3 grid;
        Dim3 block;
        const void* stream = nullptr;
        std::uint64_t number = 0;  // launches on this device so far
    };
    [[nodiscard]] std::string describe(const Launch& launch) const;

    std::string runtime_;
    std::string launch_blocking_;
    std::mutex mutex_;
    std::unordered_map<NativeFunction, std::string> names_;
    std::vector<Launch> last_;                      // by device
    std::vector<std::optional<std::string>> lost_;  // by device: the fault that lost it
};

}  // namespace kiln::detail
