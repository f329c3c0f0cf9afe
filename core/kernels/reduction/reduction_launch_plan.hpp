// How a reduction call spreads over a device, as its dialect plans it (reduction_dialect.hpp):
// threads per output and their order, the reduction split into chunks over blocks, and the
// finishing pass over the chunks' partials. A pure function of the call's shape and the device's
// limits, so that it is tested without a device.
#pragma once

#include <cstdint>

namespace kiln::detail {

struct ReductionShape {
    std::int64_t outputs = 1;  // m: output elements, at least 1 (a call without any launches none)
    std::int64_t reduced = 1;  // n: elements reduced into each
    bool contiguous = false;   // the first array input's innermost reduced step is one item
    bool columns = false;      // the kernel sweeps rows of consecutive outputs (ReductionLayout)
};

struct ReductionDevice {
    int multiprocessors = 1;
    int resident_blocks = 1;  // blocks per multiprocessor in a wave (KernelDialect's rule)
};

struct ReductionLaunchPlan {
    int block = 256;          // threads per block of both kernels; on the host, outputs per block
    int lanes = 1;            // threads per output, a power of two up to the block
    bool lanes_fast = true;   // lanes are adjacent threads (the reduction is contiguous)
    std::int64_t blocks = 1;  // grid x of the reduce kernel
    std::int64_t split = 1;   // grid y: chunks the reduction is split into
    std::int64_t chunk = 0;   // elements per chunk
    int finish_lanes = 1;     // threads per output of the finishing pass (when split > 1)
    std::int64_t finish_blocks = 1;
    // The reduce kernel's last block does the finishing pass, given the stream's block counter:
    // one launch, not two.
    bool last_block_finishes = false;
};

}  // namespace kiln::detail
