// Executable graphs made by capturing a stream's work (CuPy's cupy.cuda.Graph).
#pragma once

#include <kiln/stream_view.hpp>

namespace kiln {

// An owning, move-only executable graph; made by Stream::end_capture().
class Graph {
public:
    ~Graph();
    Graph(Graph&& other) noexcept;
    Graph& operator=(Graph&& other) noexcept;
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;

    // Queues the whole captured work on `stream` (default: the current one). Repeatable.
    void launch(StreamView stream) const;
    void launch() const;

private:
    friend class Stream;
    explicit Graph(void* native) noexcept : native_(native) {}
    void* native_ = nullptr;
};

}  // namespace kiln
