// astype() on an explicit stream: what kiln's own calls use, so that the stream a caller passes
// orders their allocations and copies without becoming the current stream.
#pragma once

#include <kiln/dtype.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/stream_view.hpp>

namespace kiln::detail {

// A new C-contiguous array of `dtype` on a's device with a's elements, converted, on `stream`.
[[nodiscard]] ndarray astype_on(const ndarray& a, DType dtype, StreamView stream);

}  // namespace kiln::detail
