// Runs a host function queued on a stream. Both vendors call back with a plain pointer; this is
// the body their trampolines share.
#pragma once

#include <cstdio>
#include <exception>
#include <functional>
#include <memory>

namespace kiln::detail {

// Takes ownership of `data` (a std::function<void()>* from Runtime::launch_host_func). An
// exception cannot travel back through the runtime's thread, so it is reported on stderr.
inline void run_host_function(void* data) noexcept {
    const std::unique_ptr<std::function<void()>> function(
        static_cast<std::function<void()>*>(data));
    try {
        (*function)();
    } catch (const std::exception& e) {
        (void)std::fprintf(stderr, "kiln: a stream host function threw: %s\n", e.what());
    } catch (...) {
        (void)std::fprintf(stderr, "kiln: a stream host function threw a non-standard exception\n");
    }
}

}  // namespace kiln::detail
