// A group of collectives runs as one task on the stream of its first call. The group's other
// streams are joined to it: their earlier work comes before the task and their later work after.
#pragma once

#include <kiln/stream_view.hpp>

#include <functional>
#include <vector>

namespace kiln::detail::host {

// Runs `launch(first)`, which queues the task on `first`, between two rounds of event waits:
// `first` after each of `others`, then each of `others` after `first`. Streams equal to `first`
// or named twice count once.
void launch_joined(StreamView first, const std::vector<StreamView>& others,
                   const std::function<void(StreamView)>& launch);

}  // namespace kiln::detail::host
