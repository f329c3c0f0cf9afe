// A lazy expression that repeats one step with new scalars, as `x = x * s + t` in a loop does:
// a prefix, then `steps` copies of a step of `period` nodes, each reading the step before it,
// the prefix's values and `scalars` new scalar arguments. Its kernel runs the step in a loop, so
// that every number of steps up to a bound shares one kernel and one compile.
#pragma once

#include "graph.hpp"

#include <cstdint>
#include <optional>

namespace kiln::detail {

struct RolledChain {
    std::int32_t prefix = 0;  // nodes before the first step
    std::int32_t period = 0;  // nodes in a step
    std::int32_t steps = 0;
    std::int32_t scalars = 0;       // scalar arguments a step takes, at least one
    std::int32_t first_scalar = 0;  // the first step's first scalar argument
};

// The chain `graph` computes at `output`, its last node, when it has at least two steps and
// each step reads only the step before it, the prefix and scalar arguments of its own (the
// prefix's arguments come first); else nothing.
[[nodiscard]] std::optional<RolledChain> find_rolled_chain(const Graph& graph, std::int32_t output);

}  // namespace kiln::detail
