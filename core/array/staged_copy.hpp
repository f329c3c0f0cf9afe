// Copies between pageable host memory and the device through pinned staging. One thread cannot
// copy host memory as fast as the DMA engines move it, so the transfer goes in chunks: several
// threads copy chunk k+1 on the host while the device moves chunk k.
#pragma once

#include <kiln/stream_view.hpp>

#include <cstddef>

namespace kiln::detail {

// Queues host -> device on `stream`. Returns once `host` may be reused; the last chunk may still
// be in flight.
void staged_upload(void* device, const void* host, std::size_t bytes, StreamView stream);

// Device -> host after the work queued on `stream`. Returns when `host` holds the data.
void staged_download(void* host, const void* device, std::size_t bytes, StreamView stream);

}  // namespace kiln::detail
