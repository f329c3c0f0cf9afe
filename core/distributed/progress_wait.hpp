// Waiting for a communicator without hanging: poll until the work is done, the library reports
// a failure, or the timeout passes. It polls without pausing for the first 200 microseconds, then
// pauses from 50 microseconds growing to a millisecond, so a short wait stays short and a long one
// costs little CPU.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace kiln::detail {

// One look at the work: finished or not, and the failure seen ("" when none).
struct Poll {
    bool finished = false;
    std::string error;
};

enum class WaitOutcome { done, failed, timed_out };

struct WaitResult {
    WaitOutcome outcome = WaitOutcome::done;
    std::string error;  // the failure, for WaitOutcome::failed
};

// Polls at least once, even with a zero timeout. A failure ends the wait at once.
[[nodiscard]] WaitResult wait_for(const std::function<Poll()>& poll,
                                  std::chrono::milliseconds timeout);

}  // namespace kiln::detail
