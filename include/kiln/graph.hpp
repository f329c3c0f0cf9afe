/// @file
/// Executable graphs made by capturing a stream's work (CuPy's cupy.cuda.Graph).
#pragma once

#include <kiln/stream_view.hpp>

#include <memory>
#include <utility>

namespace kiln {

/// An owning, move-only executable graph of one device (its captured stream's); made by
/// Stream::end_capture(). Device memory that the captured calls freed (their temporaries) stays
/// the graph's, since every launch uses it again: it goes back to its pool when the graph is
/// destroyed, once the device's work is done.
class Graph {
public:
    ~Graph();
    /// Takes over `other`'s graph.
    Graph(Graph&& other) noexcept;
    /// Destroys this graph and takes over `other`'s.
    Graph& operator=(Graph&& other) noexcept;
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;

    /// Queues the whole captured work on `stream`, a stream of the graph's device (default: that
    /// device's current stream). Repeatable.
    void launch(StreamView stream) const;
    /// Queues the graph on its device's current stream.
    void launch() const;
    /// The index of the graph's device.
    [[nodiscard]] int device() const noexcept { return device_; }

private:
    friend class Stream;
    Graph(void* native, int device, std::shared_ptr<void> held) noexcept
        : native_(native), device_(device), held_(std::move(held)) {}
    void* native_ = nullptr;
    int device_ = 0;
    // The memory the capture freed, which the graph still uses: the pool's again once the graph
    // is destroyed and the device's work done.
    std::shared_ptr<void> held_;
};

}  // namespace kiln
