// What a Communicator holds, and the steps every one of its calls shares: refuse work once
// aborted, settle a call the library finishes in the background, and turn a failure into an
// abort and a CommunicatorError. Group (group.cpp) settles its members through the same steps.
// Every library call runs inside a DeviceGuard of the communicator's device.
#pragma once

#include "collectives.hpp"
#include "progress_wait.hpp"

#include <kiln/distributed/communicator.hpp>

#include <chrono>
#include <string>
#include <string_view>

namespace kiln::distributed {

struct Communicator::State {
    detail::Collectives* library = nullptr;
    detail::NativeCommunicator comm = nullptr;
    int rank = 0;
    int size = 0;
    int device = 0;
    std::chrono::milliseconds timeout{};
    // The library is still finishing a call (non-blocking mode): wait before the next one.
    bool pending = false;
    bool aborted = false;
    std::string abort_reason;
    std::string last_operation;  // named when a wait for the stream fails

    // Throws the error that aborted the communicator, if it was; settles a pending call.
    void check_usable(std::string_view operation);
    // One look at the library's state: finished the last call, or failed.
    [[nodiscard]] detail::Poll poll() const;
    // Waits until the library has finished the last call, within the timeout.
    void settle(std::string_view operation);
    // After a call returned: settles it now, or, inside a group, when the group ends.
    void after_call(std::string_view operation, detail::Progress progress);
    // Aborts the communicator and throws CommunicatorError.
    [[noreturn]] void fail(std::string_view operation, const std::string& what);
    // Aborts, keeping the reason for later calls. Never throws.
    void abort_with(const std::string& reason) noexcept;
};

}  // namespace kiln::distributed

namespace kiln::detail {

// Whether the calling thread is inside a group; if so, `member` joins it, to be settled when it
// ends.
[[nodiscard]] bool join_open_group(distributed::Communicator::State& member);

// Whether the calling thread is inside a group.
[[nodiscard]] bool group_open();

}  // namespace kiln::detail
