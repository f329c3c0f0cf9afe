// Whether the process is exiting. Handles skip their vendor calls then: the GPU runtime may
// already be torn down, and the OS reclaims everything anyway.
#pragma once

namespace kiln::detail {

[[nodiscard]] bool process_exiting() noexcept;

// Arms process_exiting(). Called once the GPU runtime is initialised, so that this handler runs
// before the runtime's own teardown.
void watch_process_exit();

}  // namespace kiln::detail
