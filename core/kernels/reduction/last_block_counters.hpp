// The block counters of reductions whose last block reduces the partials (ReductionLaunchPlan's
// last_block_finishes): one zeroed unsigned int per stream. Each block of such a kernel adds one
// to it, and the last sets it back to zero, so the next reduction on the stream finds it zeroed;
// kernels on one stream run in order, so they share it. A driver gives a destroyed stream's
// handle to a new stream only once the old one's work is done.
#pragma once

#include <kiln/stream_view.hpp>

namespace kiln::detail {

// `stream`'s counter, or null where none may serve: a stream being captured (its graph may run
// beside later work on any stream), the per-thread default stream (one handle naming a stream per
// thread), or a device whose counters are all taken.
[[nodiscard]] void* last_block_counter(StreamView stream);

}  // namespace kiln::detail
