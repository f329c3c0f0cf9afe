// Moving between an ndarray and the Layout its view arithmetic works on.
#pragma once

#include "../layout.hpp"

#include <kiln/ndarray.hpp>

namespace kiln::detail {

[[nodiscard]] inline Layout layout_of(const ndarray& a) {
    return {a.shape(), a.strides(), a.offset()};
}

// A view of a's memory with another layout.
[[nodiscard]] inline ndarray with_layout(const ndarray& a, Layout layout) {
    return {a.memory(),    a.dtype(), std::move(layout.shape), std::move(layout.strides),
            layout.offset, a.device()};
}

}  // namespace kiln::detail
