#include "rolled_chain.hpp"

#include <algorithm>
#include <limits>

namespace kiln::detail {

namespace {

// Whether two nodes compute the same thing from their operands: every field but the operands
// and the argument position.
bool same_operation(const Node& a, const Node& b) {
    return a.kind == b.kind && a.dtype == b.dtype && a.loop == b.loop && a.ufunc == b.ufunc &&
           a.routine == b.routine && a.value == b.value && a.arity() == b.arity();
}

// Whether node `id` repeats the node `period` before it: the same operation, each operand the
// earlier node's one step on or the same node.
bool repeats(const Graph& graph, std::int32_t id, std::int32_t period) {
    const Node& later = graph.node(id);
    const Node& earlier = graph.node(id - period);
    if (!same_operation(later, earlier) || later.kind == NodeKind::array) {
        return false;
    }
    for (std::size_t o = 0; o < static_cast<std::size_t>(later.arity()); ++o) {
        const std::int32_t before = earlier.operands.at(o);
        const std::int32_t after = later.operands.at(o);
        if (after != before && after != before + period) {
            return false;
        }
    }
    return true;
}

// The first step's scalar arguments, when they are consecutive, come after every argument of
// the prefix and the step reads no array of its own.
bool first_step_scalars(const Graph& graph, RolledChain& chain) {
    std::int32_t first = std::numeric_limits<std::int32_t>::max();
    std::int32_t last = -1;
    for (std::int32_t id = chain.prefix; id < chain.prefix + chain.period; ++id) {
        const Node& node = graph.node(id);
        if (node.kind == NodeKind::array) {
            return false;
        }
        if (node.kind == NodeKind::scalar) {
            first = std::min(first, node.argument);
            last = std::max(last, node.argument);
            ++chain.scalars;
        }
    }
    if (chain.scalars == 0 || last - first + 1 != chain.scalars) {
        return false;
    }
    chain.first_scalar = first;
    for (std::int32_t id = 0; id < chain.prefix; ++id) {
        const Node& node = graph.node(id);
        const bool argument = node.kind == NodeKind::array || node.kind == NodeKind::scalar;
        if (argument && node.argument >= first) {
            return false;
        }
    }
    return true;
}

// Whether every later step reads as the first: the same operands one step on (the step's own
// nodes, or a prefix value carried from the step before), the same prefix value, or its own
// scalars. A carried value keeps its dtype from step to step.
bool steps_agree(const Graph& graph, const RolledChain& chain) {
    const std::int32_t end = chain.prefix + chain.period;
    for (std::int32_t step = 1; step < chain.steps; ++step) {
        const std::int32_t shift = step * chain.period;
        for (std::int32_t id = chain.prefix; id < end; ++id) {
            const Node& first = graph.node(id);
            const Node& later = graph.node(id + shift);
            if (!same_operation(first, later)) {
                return false;
            }
            if (first.kind == NodeKind::scalar) {
                if (later.argument != first.argument + step * chain.scalars) {
                    return false;
                }
                continue;
            }
            const Node& second = graph.node(id + chain.period);
            for (std::size_t o = 0; o < static_cast<std::size_t>(first.arity()); ++o) {
                const std::int32_t operand = first.operands.at(o);
                const bool carried = operand < chain.prefix && second.operands.at(o) != operand;
                if (operand >= chain.prefix || carried) {
                    if (later.operands.at(o) != operand + shift) {
                        return false;
                    }
                } else if (later.operands.at(o) != operand) {
                    return false;
                }
                if (carried) {
                    if (operand + chain.period < chain.prefix) {
                        return false;  // a prefix value, not the step before's
                    }
                    const Node& step_value = graph.node(operand + chain.period);
                    const bool computed = step_value.kind != NodeKind::scalar &&
                                          step_value.kind != NodeKind::constant;
                    if (!computed || step_value.dtype != graph.node(operand).dtype) {
                        return false;
                    }
                }
            }
        }
    }
    return true;
}

}  // namespace

std::optional<RolledChain> find_rolled_chain(const Graph& graph, std::int32_t output) {
    const auto size = static_cast<std::int32_t>(graph.size());
    if (graph.reduction() >= 0 || output != size - 1) {
        return std::nullopt;
    }
    // The shortest step that covers all but a prefix of at least one node, twice or more.
    for (std::int32_t period = 1; 2 * period < size; ++period) {
        std::int32_t id = size - 1;
        while (id - period >= 0 && repeats(graph, id, period)) {
            --id;
        }
        RolledChain chain;
        chain.period = period;
        chain.steps = (size - 1 - id) / period + 1;
        chain.prefix = size - chain.steps * period;
        if (chain.prefix < 1) {
            --chain.steps;
            chain.prefix += period;
        }
        if (chain.steps >= 2 && first_step_scalars(graph, chain) && steps_agree(graph, chain)) {
            return chain;
        }
    }
    return std::nullopt;
}

}  // namespace kiln::detail
