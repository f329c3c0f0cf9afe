#include "lifetime.hpp"

#include <atomic>
#include <cstdlib>
#include <mutex>

namespace kiln::detail {

namespace {
std::atomic<bool> exiting{false};
}  // namespace

bool process_exiting() noexcept {
    return exiting.load(std::memory_order_relaxed);
}

void watch_process_exit() {
    static std::once_flag once;
    // Should registration fail, handles release at exit as if there were no watch.
    std::call_once(once, [] { (void)std::atexit([] { exiting.store(true); }); });
}

}  // namespace kiln::detail
