// The link from a stream's destruction to every memory pool that may hold its handle.
#pragma once

#include <kiln/stream_view.hpp>

namespace kiln::detail {

// Calls PoolResource::retire_stream(stream) on every live pool. For a stream that has finished
// its work and is about to be destroyed.
void retire_stream_in_every_pool(StreamView stream);

}  // namespace kiln::detail
