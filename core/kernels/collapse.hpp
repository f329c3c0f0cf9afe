// Merges the axes of several operands that share one iteration shape, so that generated kernels
// index with as few dimensions as possible (CuPy's reduce_dims).
#pragma once

#include <kiln/shape.hpp>

#include <vector>

namespace kiln::detail {

struct Collapsed {
    Shape shape;
    std::vector<Strides> strides;  // one per operand, in bytes
};

// Drops axes of extent 1 and merges axis k into k+1 wherever every operand steps over k exactly
// as over the whole of k+1. A 0-d shape stays 0-d; an empty shape keeps its zero extent.
[[nodiscard]] Collapsed collapse_dims(const Shape& shape, const std::vector<Strides>& strides);

}  // namespace kiln::detail
