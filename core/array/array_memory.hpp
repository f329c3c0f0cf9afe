// Memory behind arrays, and the pinned staging buffers of host transfers.
#pragma once

#include <kiln/ndarray.hpp>
#include <kiln/stream_view.hpp>

#include <cstddef>
#include <memory>
#include <string_view>

namespace kiln::detail {

// `bytes` from the current device's allocator on `stream`, returned to it on that stream when the
// last view lets go.
[[nodiscard]] std::shared_ptr<void> allocate_array_memory(std::size_t bytes, StreamView stream);

// empty() on an explicit stream: what kiln's own calls use, so that the stream a caller passes
// orders their allocations without becoming the current stream (astype_on: array_copy.hpp).
[[nodiscard]] ndarray empty_on(const Shape& shape, DType dtype, StreamView stream);
// The same, sharing `geometry`, which must be C-contiguous for dtype's itemsize.
[[nodiscard]] ndarray empty_on(std::shared_ptr<const ArrayGeometry> geometry, DType dtype,
                               StreamView stream);
// Whether `strides` are those c_contiguous_geometry gives `shape` for `itemsize`.
[[nodiscard]] bool has_c_contiguous_strides(const Shape& shape, const Strides& strides,
                                            std::size_t itemsize) noexcept;
// A C-contiguous shape and strides for elements of `itemsize` bytes; checks the shape.
[[nodiscard]] std::shared_ptr<const ArrayGeometry> c_contiguous_geometry(
    Shape shape, std::size_t itemsize, std::string_view caller = {});

// A pinned buffer from the default pinned pool for staging an upload.
[[nodiscard]] void* acquire_staging(std::size_t bytes);
// Returns `buffer` to the pinned pool once the work queued so far on `stream` (the copy reading
// it) is done.
void release_staging_after(void* buffer, std::size_t bytes, StreamView stream);
// Returns `buffer` to the pinned pool now: no queued work uses it any more.
void release_staging(void* buffer, std::size_t bytes);
// Returns the staging buffers whose copies have finished to the pinned pool.
void reclaim_finished_staging();

}  // namespace kiln::detail
