#include "progress_wait.hpp"

#include <algorithm>
#include <thread>

namespace kiln::detail {

WaitResult wait_for(const std::function<Poll()>& poll, std::chrono::milliseconds timeout) {
    using clock = std::chrono::steady_clock;
    // A sleep, however short, costs the kernel's timer slack (about 50 us on Linux), while a
    // group of collectives is launched in tens of microseconds: so the wait first polls without
    // sleeping, then sleeps ever longer.
    constexpr std::chrono::microseconds spin_for{200};
    constexpr std::chrono::microseconds first_pause{50};
    constexpr std::chrono::microseconds longest_pause{1000};
    const auto start = clock::now();
    const auto deadline = start + timeout;
    std::chrono::microseconds pause = first_pause;
    while (true) {
        const Poll seen = poll();
        if (!seen.error.empty()) {
            return {WaitOutcome::failed, seen.error};
        }
        if (seen.finished) {
            return {WaitOutcome::done, {}};
        }
        const auto now = clock::now();
        if (now >= deadline) {
            return {WaitOutcome::timed_out, {}};
        }
        if (now - start < spin_for) {
            std::this_thread::yield();
            continue;
        }
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, longest_pause);
    }
}

}  // namespace kiln::detail
