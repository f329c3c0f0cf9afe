#include "array/pending_array.hpp"
#include "backend.hpp"
#include "call_context.hpp"
#include "handle.hpp"
#include "lifetime.hpp"

#include <kiln/graph.hpp>
#include <kiln/stream.hpp>

#include <utility>

namespace kiln {

Graph::~Graph() {
    if (!detail::process_exiting()) {
        detail::release_quietly(native_, [](void* g) { detail::backend().destroy_graph(g); });
    }
}

Graph::Graph(Graph&& other) noexcept
    : native_(std::exchange(other.native_, nullptr)),
      device_(other.device_),
      held_(std::move(other.held_)) {}

Graph& Graph::operator=(Graph&& other) noexcept {
    if (this != &other) {
        Graph old(std::move(*this));
        native_ = std::exchange(other.native_, nullptr);
        device_ = other.device_;
        held_ = std::move(other.held_);
    }
    return *this;
}

void Graph::launch(StreamView stream) const {
    void* const graph = detail::require_native(native_, "Graph");
    const StreamView on = detail::call_stream("Graph.launch", device_, stream);
    // The graph writes through the pointers it captured, past ndarray::memory(): whatever reads
    // them, deferred on any stream, runs first.
    detail::run_all_pending();
    detail::backend().launch_graph(graph, on);
}

void Graph::launch() const {
    launch(detail::current_stream_of(device_));
}

}  // namespace kiln
