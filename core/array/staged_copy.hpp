// Copies between pageable host memory and the device through pinned staging. One thread cannot
// copy host memory as fast as the DMA engines move it, so a transfer goes in chunks through a
// ring of pinned slots (at most 64 MiB per transfer, whatever its size): several threads copy
// one chunk on the host while the device moves another (staging_ring.hpp).
#pragma once

#include <kiln/stream_view.hpp>

#include <cstddef>

namespace kiln::detail {

// Queues host -> device on `stream`. Returns once `host` may be reused; the copies of the last
// ring's worth of chunks may still be in flight. A transfer larger than the ring waits for the
// stream to move its earlier chunks, and so for the work queued before it on `stream`.
void staged_upload(void* device, const void* host, std::size_t bytes, StreamView stream);

// Device -> host after the work queued on `stream`. Returns when `host` holds the data.
void staged_download(void* host, const void* device, std::size_t bytes, StreamView stream);

}  // namespace kiln::detail
