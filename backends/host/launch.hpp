// A kernel launch on the host: the arguments copied when the launch is queued (as a GPU runtime
// copies them), then, when the stream gets there, the grid's blocks run over the thread pool.
#pragma once

#include "../../core/backend.hpp"
#include "module.hpp"
#include "streams.hpp"

namespace kiln::detail::host {

// Queues `function` over `config`'s grid on `config.stream`. A zero-sized grid or block is an
// Error, as on a GPU. An exception the kernel throws surfaces at the stream's next
// synchronization as a BackendError naming the kernel.
void launch(Streams& streams, const HostFunction& function, const LaunchConfig& config,
            void* const* args);

}  // namespace kiln::detail::host
