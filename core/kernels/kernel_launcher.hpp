// Launches a generated kernel's call on the call's stream and records each launch (and the scratch
// memory the launches share), so that a later call of the same layout replays them.
#pragma once

#include "../profiling.hpp"
#include "recorded_call.hpp"

#include <kiln/ndarray.hpp>
#include <kiln/stream_view.hpp>

#include <cstddef>
#include <cstdint>

namespace kiln::detail {

class KernelLauncher {
public:
    // `record` must outlive the launcher; its kernel name labels the profiler range.
    KernelLauncher(RecordedCall& record, StreamView stream);

    [[nodiscard]] StreamView stream() const noexcept { return stream_; }
    // The current device's multiprocessors, which launch sizes are planned for.
    [[nodiscard]] int multiprocessors() const noexcept { return multiprocessors_; }

    // `bytes` of device memory for this call's launches, allocated on the stream and released
    // after them; a replay allocates as much.
    [[nodiscard]] void* scratch(std::int64_t bytes);
    // The stream's block counter for a reduction finished by its last block, or null where the
    // stream has none (last_block_counters.hpp); a replay takes the replaying stream's.
    [[nodiscard]] void* block_counter();

    void launch(NativeFunction function, Dim3 grid, Dim3 block, std::size_t shared_bytes,
                ArgumentPack arguments);

private:
    RecordedCall& record_;
    StreamView stream_;
    int multiprocessors_;
    ProfileRange range_;
    ndarray scratch_;
};

}  // namespace kiln::detail
