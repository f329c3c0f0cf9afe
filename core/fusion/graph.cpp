#include "graph.hpp"

#include <kiln/error.hpp>

#include <algorithm>

namespace kiln::detail {

namespace {

thread_local Graph* active_graph = nullptr;

}  // namespace

int Node::arity() const noexcept {
    return static_cast<int>(
        std::count_if(operands.begin(), operands.end(), [](std::int32_t id) { return id >= 0; }));
}

std::string_view Node::operation() const noexcept {
    switch (kind) {
        case NodeKind::ufunc:
            return ufunc->name;
        case NodeKind::where:
            return "where";
        case NodeKind::astype:
            return "astype";
        case NodeKind::reduction:
            return routine->name;
        default:
            return "argument";
    }
}

std::string Graph::prefix() const {
    return "kiln::fuse: " + name_ + ": ";
}

const Node& Graph::node(std::int32_t id) const {
    if (id < 0 || static_cast<std::size_t>(id) >= nodes_.size()) {
        throw Error(prefix() + "a traced value of another trace was used in this one");
    }
    return nodes_[static_cast<std::size_t>(id)];
}

bool Graph::reduced(std::int32_t id) const {
    (void)node(id);
    return facts_[static_cast<std::size_t>(id)].reduced;
}

bool Graph::reads_arrays(std::int32_t id) const {
    (void)node(id);
    return facts_[static_cast<std::size_t>(id)].reads_arrays;
}

std::int32_t Graph::add(const Node& node) {
    if (const auto found = index_.find(node); found != index_.end()) {
        return found->second;
    }
    Facts facts;
    facts.reads_arrays = node.kind == NodeKind::array;
    bool reads = false;
    for (int o = 0; o < node.arity(); ++o) {
        const auto operand = node.operands.at(static_cast<std::size_t>(o));
        facts.reduced = facts.reduced || reduced(operand);
        reads = reads || reads_arrays(operand);
    }
    if (node.kind == NodeKind::reduction) {
        if (reduction_ >= 0) {
            throw TypeError(prefix() + "'" + std::string(node.operation()) +
                            "' is a second reduction (after '" +
                            std::string(nodes_[static_cast<std::size_t>(reduction_)].operation()) +
                            "'); a fused function holds one reduction, so split it into two "
                            "fused functions");
        }
        if (!reads) {
            throw TypeError(prefix() + "'" + std::string(node.operation()) +
                            "' reduces no array: its operand is made of scalars alone");
        }
        facts.reduced = true;
    } else if (facts.reduced && reads) {
        throw TypeError(prefix() + "'" + std::string(node.operation()) +
                        "' combines the reduction's result with an array that is not reduced; "
                        "the operations after a fused reduction take only its result and "
                        "scalars (its kernel's post-map runs once per output element), so "
                        "split it into two fused functions");
    } else {
        facts.reads_arrays = facts.reads_arrays || reads;
    }
    if (nodes_.size() >= max_nodes) {
        throw ValueError(prefix() + "the traced expression has more than " +
                         std::to_string(max_nodes) +
                         " nodes (arguments, constants and operations), the most one fused "
                         "kernel takes; split it into several fused functions");
    }
    const auto id = static_cast<std::int32_t>(nodes_.size());
    nodes_.push_back(node);
    facts_.push_back(facts);
    index_.emplace(node, id);
    if (node.kind == NodeKind::reduction) {
        reduction_ = id;
    }
    return id;
}

TraceScope::TraceScope(Graph& graph) noexcept : previous_(active_graph) {
    active_graph = &graph;
}

TraceScope::~TraceScope() {
    active_graph = previous_;
}

Graph& TraceScope::active(std::string_view operation) {
    if (active_graph == nullptr) {
        throw Error("kiln::fuse: '" + std::string(operation) +
                    "' of a traced value outside its fused function's trace (a kiln::fusion::Var "
                    "lives only while its function is traced)");
    }
    return *active_graph;
}

Graph* TraceScope::current() noexcept {
    return active_graph;
}

}  // namespace kiln::detail
