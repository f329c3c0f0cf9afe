// The streams a kiln::Stream's capture takes in: the capturing stream, and each stream forked
// into it by waiting on an event recorded in it, as CUDA's capture follows a cross-stream
// dependency. Memory freed on any of them is the graph's (array/captured_memory.hpp), and a split
// reduction on any of them keeps its two launches (kernels/reduction/last_block_counters.hpp).
#pragma once

#include <kiln/stream_view.hpp>

namespace kiln::detail {

// `origin` begins a capture; it is its first member.
void begin_capture_of(StreamView origin);
// The capture of `origin` ends: every member leaves it.
void end_capture_of(StreamView origin);

// `event` was recorded on `stream`: in its capture when it has one.
void note_event_recorded(void* event, StreamView stream);
// `stream` waits on `event`: an event recorded in a capture forks `stream` into it.
void note_event_waited(StreamView stream, void* event);

// The stream whose capture takes in `stream` now, or null.
[[nodiscard]] void* capture_origin(StreamView stream);
// Whether a capture takes in `stream` now.
[[nodiscard]] bool stream_capturing(StreamView stream);

}  // namespace kiln::detail
