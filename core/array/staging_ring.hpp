// The schedule of a transfer through a ring of pinned staging slots (see StagingPlan): host
// threads copy between the user's memory and the slots while the stream's DMA moves other slots,
// and a slot is reused only once its previous chunk has left it. Written over StagingQueue, the
// little it needs from a stream, so that the ordering is tested without a device.
#pragma once

#include "staging_plan.hpp"

#include <cstddef>

namespace kiln::detail {

// What a staged transfer asks of its stream. copy and mark are called only from the thread that
// started the transfer (the stream may be its per-thread default stream); wait from any thread.
class StagingQueue {
public:
    StagingQueue() = default;
    StagingQueue(const StagingQueue&) = delete;
    StagingQueue(StagingQueue&&) = delete;
    StagingQueue& operator=(const StagingQueue&) = delete;
    StagingQueue& operator=(StagingQueue&&) = delete;
    virtual ~StagingQueue() = default;

    // Queues an asynchronous copy of `bytes` from `source` to `target`.
    virtual void copy(void* target, const void* source, std::size_t bytes) = 0;
    // Marks slot `slot` as reached once everything queued so far has run.
    virtual void mark(std::size_t slot) = 0;
    // Blocks until the slot's latest mark is reached.
    virtual void wait(std::size_t slot) = 0;
};

// Host -> device: `workers` threads (the caller included) copy chunk k from `host` into its slot
// of `staging` once the slot's previous chunk has been moved, and the caller queues chunk k's
// copy to `device` once every share of it is in. Returns once `host` is no longer read; the last
// slots' copies may still be in flight. Rethrows the first error of any thread, after all stop.
void ring_upload(void* device, const void* host, void* staging, const StagingPlan& plan,
                 unsigned workers, StagingQueue& queue);

// Device -> host: the caller queues chunk k's copy into its slot once every share of the slot's
// previous chunk has been copied out, and the workers copy each chunk out of its slot into `host`
// once its copy has arrived. Returns when `host` holds the data.
void ring_download(void* host, const void* device, void* staging, const StagingPlan& plan,
                   unsigned workers, StagingQueue& queue);

}  // namespace kiln::detail
