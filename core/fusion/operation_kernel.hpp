// One deferred operation over computed arrays and scalars, the expression most often read at
// once: its kernel found by a key of plain values, without building its graph or the graph's
// structure text, so that computing it costs about what the eager call does.
#pragma once

#include "lazy_expression.hpp"

#include <kiln/ndarray.hpp>

namespace kiln::detail {

// `operation` computed on `stream` by the kernel a graph of it alone makes. Every array operand
// must be computed.
[[nodiscard]] ndarray run_operation(const LazyOperation& operation, StreamView stream);

}  // namespace kiln::detail
