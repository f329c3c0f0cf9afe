// Memory freed on a stream while a kiln::Stream captures its work. The graph made from the
// capture reads and writes it at every launch, so it must not go back to its allocator, which
// would hand it to later work, until that graph is destroyed.
#pragma once

#include <kiln/stream_view.hpp>

#include <functional>
#include <memory>

namespace kiln::detail {

// Keeps `release`, which returns memory freed on `stream`, for the capture that takes in
// `stream` (core/captures.hpp); false, keeping nothing, when none does.
[[nodiscard]] bool hold_for_capture(StreamView stream, const std::function<void()>& release);

// What the capture of `stream`, now ending, holds: its releases run when the last owner lets go,
// after the device's work (the graph's launches) is done; null when it holds nothing.
[[nodiscard]] std::shared_ptr<void> take_capture_holds(StreamView stream);

}  // namespace kiln::detail
