// The expression a fused function's trace records: nodes of arguments, constants and
// operations, each added once (hash-consed), so that a value used twice is computed once. The
// graph also holds the rules that make an expression one kernel: at most one reduction, and after
// it only the reduced value and scalars.
#pragma once

#include "../routines/reduction_routine.hpp"
#include "../routines/ufunc_definition.hpp"

#include <kiln/dtype.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace kiln::detail {

enum class NodeKind : std::uint8_t {
    array,      // an array argument
    scalar,     // a C++ number argument: a kernel parameter
    constant,   // a C++ number written in the function: a literal
    ufunc,      // a ufunc of its operands
    where,      // where(condition, x, y)
    astype,     // a conversion
    reduction,  // a reduction routine along axes; operands: the reduced value, its parameter
};

struct Node {
    NodeKind kind{};
    DType dtype{};               // the value's
    DType loop{};                // ufunc, where: the loop dtype; reduction: the accumulator's
    std::int32_t argument = -1;  // array, scalar: the argument's position
    std::array<std::int32_t, 3> operands{-1, -1, -1};
    const UfuncDefinition* ufunc = nullptr;
    const ReductionRoutine* routine = nullptr;
    std::array<std::byte, 16> value{};  // constant: the value as an element of dtype
    bool all_axes = true;               // reduction: NumPy's axis=None
    std::vector<int> axes;
    bool keepdims = false;

    // A C++ number (NEP 50's weak scalar): it promotes only by kind.
    [[nodiscard]] bool weak() const noexcept {
        return kind == NodeKind::scalar || kind == NodeKind::constant;
    }
    [[nodiscard]] int arity() const noexcept;
    // The operation's name, for messages: the ufunc's, "where", "astype" or the reduction's.
    [[nodiscard]] std::string_view operation() const noexcept;

    // Nodes in an order of everything that makes them differ, for hash-consing; the ufunc and
    // the routine by address, since each is one static definition.
    friend bool operator<(const Node& a, const Node& b) {
        const auto head = [](const Node& n) {
            return std::tie(n.kind, n.dtype, n.loop, n.argument, n.operands);
        };
        if (head(a) != head(b)) {
            return head(a) < head(b);
        }
        if (a.ufunc != b.ufunc) {
            return std::less<>()(a.ufunc, b.ufunc);
        }
        if (a.routine != b.routine) {
            return std::less<>()(a.routine, b.routine);
        }
        return std::tie(a.value, a.all_axes, a.axes, a.keepdims) <
               std::tie(b.value, b.all_axes, b.axes, b.keepdims);
    }
};

class Graph {
public:
    // The most nodes an expression may have.
    static constexpr std::size_t max_nodes = 1000;

    explicit Graph(std::string name) : name_(std::move(name)) {}

    // The node equal to `node`, added when new. Throws ValueError past max_nodes, TypeError for a
    // second reduction, a reduction of no array, or a reduced value combined with an array.
    std::int32_t add(const Node& node);

    [[nodiscard]] const Node& node(std::int32_t id) const;
    [[nodiscard]] std::size_t size() const noexcept { return nodes_.size(); }
    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    // The reduction node, or -1.
    [[nodiscard]] std::int32_t reduction() const noexcept { return reduction_; }
    // Whether the node's value depends on the reduction.
    [[nodiscard]] bool reduced(std::int32_t id) const;
    // Whether the node reads an array other than through the reduction.
    [[nodiscard]] bool reads_arrays(std::int32_t id) const;
    // "kiln::fuse: <name>: ", the start of every message about this trace.
    [[nodiscard]] std::string prefix() const;

private:
    struct Facts {
        bool reduced = false;
        bool reads_arrays = false;
    };

    std::string name_;
    std::vector<Node> nodes_;
    std::vector<Facts> facts_;
    std::map<Node, std::int32_t> index_;
    std::int32_t reduction_ = -1;
};

// Makes `graph` the one this thread's traced operations record into, while it lives.
class TraceScope {
public:
    explicit TraceScope(Graph& graph) noexcept;
    ~TraceScope();
    TraceScope(const TraceScope&) = delete;
    TraceScope& operator=(const TraceScope&) = delete;
    TraceScope(TraceScope&&) = delete;
    TraceScope& operator=(TraceScope&&) = delete;

    // The graph being traced on this thread. Throws Error naming `operation` when none is: a
    // traced value was kept past its trace.
    [[nodiscard]] static Graph& active(std::string_view operation);
    // The same, or null.
    [[nodiscard]] static Graph* current() noexcept;

private:
    Graph* previous_;
};

}  // namespace kiln::detail
