// A workload's peak device memory. kiln's pool has no high-water counter, but it keeps what it
// allocated until free_all_blocks(): so its total_bytes() after a workload, less what it held
// before, is the most the workload had allocated at once (rounded up to the pool's blocks).
#pragma once

#include <cstddef>
#include <optional>

namespace kiln::bench {

class PeakMemory {
public:
    // Releases the pool's cached blocks and notes what is still held; nothing without a GPU.
    explicit PeakMemory(bool gpu);

    [[nodiscard]] std::optional<std::size_t> bytes() const;

private:
    bool gpu_;
    std::size_t base_ = 0;
};

}  // namespace kiln::bench
