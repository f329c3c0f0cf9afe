// A C-contiguous array seen as its bytes (uint8), so that host transfers of a shard take any
// dtype without a switch over element types.
#pragma once

#include <kiln/ndarray.hpp>

namespace kiln::distributed::detail {

// The bytes of `array`, which must be C-contiguous, as a one-dimensional uint8 view.
[[nodiscard]] inline ndarray byte_view(const ndarray& array) {
    return {array.memory(), uint8,         {static_cast<std::int64_t>(array.nbytes())}, {1},
            array.offset(), array.device()};
}

}  // namespace kiln::distributed::detail
