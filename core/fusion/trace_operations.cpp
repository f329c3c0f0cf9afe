// The traced operations of include/kiln/fuse.hpp: each records a node in the active graph, with
// its dtypes from the eager routines' own rules (the ufunc table, NEP 50 promotion, the
// reductions' accumulators), so that fused and eager results agree.
#include "../routines/exact_comparison.hpp"
#include "../routines/promotion.hpp"
#include "../routines/reductions.hpp"
#include "../routines/ufunc_call.hpp"
#include "../routines/ufunc_table.hpp"
#include "graph.hpp"

#include <kiln/error.hpp>
#include <kiln/fuse.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <tuple>
#include <vector>

namespace kiln::fusion {

namespace {

using detail::Graph;
using detail::Node;
using detail::NodeKind;
using detail::TraceScope;

const detail::UfuncDefinition* find_ufunc(std::string_view name) {
    const std::string_view wanted = name == "divide" ? "true_divide" : name;
    for (const detail::UfuncDefinition* ufunc : detail::ufuncs::all) {
        if (ufunc->name == wanted) {
            return ufunc;
        }
    }
    return nullptr;
}

// An eager routine's message, restated as the trace's.
[[noreturn]] void rethrow_in(const Graph& graph, const TypeError& error) {
    std::string_view what = error.what();
    if (what.starts_with("kiln: ")) {
        what.remove_prefix(6);
    }
    throw TypeError(graph.prefix() + std::string(what));
}

std::int32_t node_of(Graph& graph, const Operand& operand) {
    if (const auto* var = std::get_if<Var>(&operand)) {
        (void)graph.node(var->node());
        return var->node();
    }
    const auto& scalar = std::get<Scalar>(operand);
    Node constant;
    constant.kind = NodeKind::constant;
    constant.dtype = scalar.dtype();
    constant.value = scalar.bytes_as(scalar.dtype());
    return graph.add(constant);
}

// NEP 50: arrays and computed values are strong, C++ numbers weak.
DType promoted(const Graph& graph, std::span<const std::int32_t> operands) {
    std::vector<DType> strong;
    std::vector<DType> weak;
    for (const std::int32_t id : operands) {
        const Node& node = graph.node(id);
        (node.weak() ? weak : strong).push_back(node.dtype);
    }
    return detail::promote_weak(strong, weak);
}

// Eagerly, integers of mixed signedness whose promotion leaves the integers (int64 with uint64)
// compare exactly; a fused comparison in the promoted dtype would round, so it is refused.
void check_exact_comparison(const Graph& graph, const Node& node, std::size_t count) {
    std::vector<DType> dtypes;
    for (std::size_t i = 0; i < count; ++i) {
        dtypes.push_back(graph.node(node.operands.at(i)).dtype);
    }
    if (detail::compares_integers_exactly(*node.ufunc, dtypes, node.loop)) {
        throw TypeError(graph.prefix() + std::string(node.ufunc->name) +
                        ": cannot compare integers of mixed signedness exactly (" +
                        std::string(name(dtypes.front())) + " with " +
                        std::string(name(dtypes.back())) + "); call it outside kiln::fuse");
    }
}

// A C++ number must be representable in an integer loop dtype (NEP 50), as eagerly.
void check_scalars_fit(const Graph& graph, std::string_view operation,
                       std::span<const Operand> operands, DType loop) {
    if (kind(loop) != 'i' && kind(loop) != 'u') {
        return;
    }
    for (const Operand& operand : operands) {
        if (const auto* scalar = std::get_if<Scalar>(&operand)) {
            try {
                (void)scalar->bytes_as(loop);
            } catch (const TypeError&) {
                throw TypeError(graph.prefix() + std::string(operation) +
                                ": a scalar cannot be represented in " + std::string(name(loop)) +
                                ", the dtype of the other operands");
            }
        }
    }
}

const detail::ReductionRoutine* fusable_reduction(std::string_view name) {
    const std::string_view routine = name == "amax" ? "max" : (name == "amin" ? "min" : name);
    constexpr std::array<std::string_view, 9> fusable = {"sum", "prod", "mean",   "max",   "min",
                                                         "var", "std",  "argmax", "argmin"};
    if (std::find(fusable.begin(), fusable.end(), routine) == fusable.end()) {
        not_fusable(name);
    }
    return detail::find_reduction(routine);
}

Var traced_reduction(std::string_view reduction, const Var& x, const Axis& axis, bool keepdims,
                     std::int64_t ddof) {
    Graph& graph = TraceScope::active(reduction);
    Node node;
    node.kind = NodeKind::reduction;
    node.routine = fusable_reduction(reduction);
    node.operands[0] = x.node();
    const DType input = graph.node(x.node()).dtype;
    try {
        detail::check_kind(*node.routine, input);
    } catch (const TypeError& error) {
        rethrow_in(graph, error);
    }
    if (node.routine->accumulate == detail::Accumulate::index && axis.axes().size() > 1) {
        throw TypeError(graph.prefix() + std::string(reduction) +
                        ": takes one axis or every axis (the flattened array), not " +
                        std::to_string(axis.axes().size()));
    }
    if (!node.routine->parameter.empty()) {  // var's and std's ddof, a literal of the kernel
        Node constant;
        constant.kind = NodeKind::constant;
        constant.dtype = DType::int64;
        constant.value = Scalar(ddof).bytes_as(DType::int64);
        node.operands[1] = graph.add(constant);
    }
    std::tie(node.loop, node.dtype) = detail::routine_dtypes(*node.routine, input);
    node.all_axes = axis.all();
    node.axes.assign(axis.axes().begin(), axis.axes().end());
    node.keepdims = keepdims;
    return Var(graph.add(node));
}

}  // namespace

Var trace_ufunc(std::string_view ufunc_name, std::initializer_list<Operand> operands) {
    Graph& graph = TraceScope::active(ufunc_name);
    Node node;
    std::size_t o = 0;
    if (operands.size() > node.operands.size()) {
        not_fusable(ufunc_name);
    }
    for (const Operand& operand : operands) {
        node.operands.at(o++) = node_of(graph, operand);
    }
    const std::span<const std::int32_t> ids(node.operands.data(), operands.size());
    if (ufunc_name != "where") {
        node.ufunc = find_ufunc(ufunc_name);
        if (node.ufunc == nullptr) {
            not_fusable(ufunc_name);
        }
    }
    try {
        if (ufunc_name == "where") {
            node.kind = NodeKind::where;
            node.loop = promoted(graph, ids.subspan(1));
            node.dtype = node.loop;
        } else {
            node.kind = NodeKind::ufunc;
            node.loop = detail::loop_dtype(*node.ufunc, promoted(graph, ids));
            node.dtype = detail::output_dtype(*node.ufunc, node.loop);
            // Throws TypeError naming the ufunc when it does not take the loop dtype.
            (void)detail::ufunc_operation(*node.ufunc, node.loop, node.dtype);
        }
    } catch (const TypeError& error) {
        rethrow_in(graph, error);
    }
    if (node.kind == NodeKind::ufunc) {
        check_exact_comparison(graph, node, operands.size());
    }
    // where's condition takes no part in promotion.
    const std::span<const Operand> values(operands.begin(), operands.size());
    check_scalars_fit(graph, ufunc_name, ufunc_name == "where" ? values.subspan(1) : values,
                      node.loop);
    return Var(graph.add(node));
}

Var trace_reduction(std::string_view reduction, const Var& x, const Axis& axis, bool keepdims) {
    return traced_reduction(reduction, x, axis, keepdims, 0);
}

Var trace_reduction(std::string_view reduction, const Var& x, const ReduceOptions& options) {
    const bool takes_ddof = reduction == "var" || reduction == "std";
    if (options.dtype || options.out || options.stream || (options.ddof != 0 && !takes_ddof)) {
        Graph& graph = TraceScope::active(reduction);
        throw TypeError(graph.prefix() + std::string(reduction) +
                        ": a fused reduction takes axis and keepdims (and var's and std's ddof) "
                        "only, not dtype, out or stream (convert with astype before it; the fused "
                        "call runs on the current stream)");
    }
    return traced_reduction(reduction, x, options.axis, options.keepdims, options.ddof);
}

void not_fusable(std::string_view operation) {
    const Graph* graph = TraceScope::current();
    throw TypeError((graph != nullptr ? graph->prefix() : std::string("kiln::fuse: ")) + "'" +
                    std::string(operation) +
                    "' cannot be fused: a fused function holds operators, ufuncs, where, astype "
                    "and one reduction among sum, prod, mean, max, min (amax, amin), var, std, "
                    "argmax and argmin");
}

Var Var::astype(DType dtype) const {
    Graph& graph = detail::TraceScope::active("astype");
    Node node;
    node.kind = NodeKind::astype;
    node.dtype = dtype;
    node.loop = graph.node(node_).dtype;
    node.operands[0] = node_;
    return Var(graph.add(node));
}

}  // namespace kiln::fusion
