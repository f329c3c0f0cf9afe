// What a Communicator holds, and the steps every one of its calls shares: refuse work once
// aborted, settle a call the library finishes in the background, and turn a failure into an
// abort and a CommunicatorError. Group (group.cpp) settles its members through the same steps.
// Every library call runs inside a DeviceGuard of the communicator's device. The state is shared
// with the open groups it was called in, so a communicator destroyed before such a group ends is
// freed at the group's end instead (see release()).
#pragma once

#include "collectives.hpp"
#include "progress_wait.hpp"

#include <kiln/distributed/communicator.hpp>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace kiln::distributed {

// Every member below but the constants (library, rank, size, device) is read and written with
// `mutex` held; each of the Communicator's calls holds it throughout, so that calls from several
// threads run one at a time.
struct Communicator::State : std::enable_shared_from_this<Communicator::State> {
    std::mutex mutex;
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
    // How many open groups (of any thread) it was called in, and whether its Communicator was
    // destroyed while one was: the last of them to end then releases it.
    int open_groups = 0;
    bool orphaned = false;

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
    // What the Communicator's destructor does: flushes the library's communicator and frees it,
    // or aborts it when that does not finish within the timeout. Never throws.
    void release() noexcept;
};

}  // namespace kiln::distributed

namespace kiln::detail {

// Whether the calling thread is inside a group; if so, `member` (its mutex held) joins it, to be
// settled when it ends.
[[nodiscard]] bool join_open_group(distributed::Communicator::State& member);

// Whether the calling thread is inside a group.
[[nodiscard]] bool group_open();

}  // namespace kiln::detail
