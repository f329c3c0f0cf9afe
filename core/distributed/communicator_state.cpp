#include "communicator_state.hpp"

#include "../backend.hpp"
#include "progress_wait.hpp"

#include <kiln/device.hpp>
#include <kiln/error.hpp>

#include <string>

namespace kiln::distributed {

void Communicator::State::check_usable(std::string_view operation) {
    if (aborted) {
        throw CommunicatorError(rank, size, std::string(operation),
                                "the communicator was aborted before: " + abort_reason);
    }
    if (pending) {
        settle(operation);
    }
}

detail::Poll Communicator::State::poll() const {
    const DeviceGuard on_device{Device(device)};
    auto status = library->status(comm);
    return {status.progress == detail::Progress::done, std::move(status.error)};
}

void Communicator::State::settle(std::string_view operation) {
    const auto result = detail::wait_for([this] { return poll(); }, timeout);
    switch (result.outcome) {
        case detail::WaitOutcome::done:
            pending = false;
            return;
        case detail::WaitOutcome::failed:
            fail(operation, library->library_name() + " reported: " + result.error);
        case detail::WaitOutcome::timed_out:
            fail(operation, library->library_name() + " did not finish it within " +
                                std::to_string(timeout.count()) + " ms");
    }
}

void Communicator::State::after_call(std::string_view operation, detail::Progress progress) {
    last_operation = operation;
    const bool grouped = detail::join_open_group(*this);
    if (progress == detail::Progress::in_progress) {
        pending = true;
        if (!grouped) {
            settle(operation);
        }
    }
}

void Communicator::State::fail(std::string_view operation, const std::string& what) {
    const std::string reason = what + "; the communicator was aborted";
    abort_with(CommunicatorError(rank, size, std::string(operation), reason).what());
    throw CommunicatorError(rank, size, std::string(operation), reason);
}

void Communicator::State::release() noexcept {
    if (aborted) {
        return;
    }
    try {
        const DeviceGuard on_device{Device(device)};
        const bool flushed = library->finalize(comm) == detail::Progress::done ||
                             detail::wait_for([this] { return poll(); }, timeout).outcome ==
                                 detail::WaitOutcome::done;
        if (flushed) {
            library->destroy(comm);
        } else {
            library->abort(comm);
        }
    } catch (...) {
        abort_with("its destructor failed to free it");
    }
}

void Communicator::State::abort_with(const std::string& reason) noexcept {
    if (aborted) {
        return;
    }
    aborted = true;
    pending = false;
    abort_reason = reason;
    try {
        const DeviceGuard on_device{Device(device)};
        library->abort(comm);
    } catch (...) {  // the device could not be made current: abort under the caller's
        library->abort(comm);
    }
    comm = nullptr;
}

}  // namespace kiln::distributed
