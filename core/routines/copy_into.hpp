// What the shape routines that write into arrays share: the checks of devices and casts, worded
// with the routine and the argument, and the strided cast-copy into a destination that may
// overlap its source.
#pragma once

#include <kiln/dtype.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/stream_view.hpp>

#include <string_view>

namespace kiln::detail {

// NumPy's spelling of a casting rule: "same_kind".
[[nodiscard]] std::string_view casting_name(Casting casting);

// Throws TypeError unless `from` casts to `to` under `casting`: "kiln: <routine>: cannot cast
// <what> from float64 to int32 under 'same_kind' casting".
void require_cast(std::string_view routine, std::string_view what, DType from, DType to,
                  Casting casting);

// dst[index] = src[index] cast to dst's dtype, for src broadcast to dst's shape (which the caller
// has checked), on `stream`. A src that overlaps dst is copied first, so that every element is
// read before any is written.
// A C-contiguous copy, on the current device and `stream`, of `src`, which lives on another
// device: after the work queued so far on its device's current stream, and ahead of that stream's
// later work, so that src's memory is not freed or reused before the copy has read it.
[[nodiscard]] ndarray copy_from_device(const ndarray& src, StreamView stream);

// `src`, of another device, into `dst` on `stream` (of dst's device), ordered as
// copy_from_device: one device-to-device copy where both are C-contiguous with one shape and
// dtype, else copy_from_device and copy_into.
void copy_across_devices(const ndarray& dst, const ndarray& src, StreamView stream);

void copy_into(const ndarray& dst, const ndarray& src, StreamView stream);

}  // namespace kiln::detail
