#include "progress_wait.hpp"

#include <algorithm>
#include <thread>

namespace kiln::detail {

WaitResult wait_for(const std::function<Poll()>& poll, std::chrono::milliseconds timeout) {
    using clock = std::chrono::steady_clock;
    constexpr std::chrono::microseconds longest_pause{1000};
    const auto deadline = clock::now() + timeout;
    std::chrono::microseconds pause{2};
    while (true) {
        const Poll seen = poll();
        if (!seen.error.empty()) {
            return {WaitOutcome::failed, seen.error};
        }
        if (seen.finished) {
            return {WaitOutcome::done, {}};
        }
        if (clock::now() >= deadline) {
            return {WaitOutcome::timed_out, {}};
        }
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, longest_pause);
    }
}

}  // namespace kiln::detail
