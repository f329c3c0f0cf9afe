// The layout of a strided array: shape, byte strides and byte offset, and the views NumPy derives
// from them without touching memory (reshape, transpose, slicing, broadcasting, squeeze,
// expand_dims). An ndarray is device memory + dtype + Layout; each of its view methods calls one
// of these functions and keeps the memory.
#pragma once

#include <kiln/shape.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln::detail {

// Element (i0, i1, ...) lies at byte offset + i0 * strides[0] + i1 * strides[1] + ... from the
// memory's base pointer. Every Layout these functions return has non-negative extents, one stride
// per axis, a byte size (size() * itemsize) that fits in int64, and byte offsets that fit too.
// Given a hand-made Layout that breaks this, a function throws Error when a byte offset or stride
// would overflow, never worse.
struct Layout {
    Shape shape;
    Strides strides;
    std::int64_t offset = 0;

    [[nodiscard]] std::int64_t ndim() const noexcept {
        return static_cast<std::int64_t>(shape.size());
    }
    // Number of elements: the product of the extents, 1 for a 0-d array. Throws Error if it
    // overflows int64, which no Layout built by the functions below does.
    [[nodiscard]] std::int64_t size() const;

    friend bool operator==(const Layout&, const Layout&) = default;
};

// The functions below name `caller` (the user-facing operation, such as "reshape") in their
// error messages; where it is a parameter, an empty one leaves it out.

// The number of elements of an array of this shape. Throws ShapeError naming the shape when an
// extent is negative, or when the element count or the byte size of the non-empty axes overflows
// int64 (those bytes give the contiguous strides, which must fit even for an empty array).
[[nodiscard]] std::int64_t checked_size(const Shape& shape, std::size_t itemsize,
                                        std::string_view caller = {});

// Fresh row-major (C) or column-major (Fortran) layouts at offset 0. As in CuPy and NumPy's
// reshape, an axis of extent 0 or 1 does not scale the strides of the axes before it. Validates
// the shape with checked_size.
[[nodiscard]] Layout c_contiguous(const Shape& shape, std::size_t itemsize,
                                  std::string_view caller = {});
[[nodiscard]] Layout f_contiguous(const Shape& shape, std::size_t itemsize,
                                  std::string_view caller = {});
// c_contiguous(shape, itemsize, caller).strides, without copying the shape.
[[nodiscard]] Strides c_contiguous_strides(const Shape& shape, std::size_t itemsize,
                                           std::string_view caller = {});

// NumPy's contiguity flags: strides of extent-1 axes are ignored, an array with no elements is
// both C- and F-contiguous, and so is a 0-d array. The offset plays no part.
[[nodiscard]] bool is_c_contiguous(const Layout& layout, std::size_t itemsize);
[[nodiscard]] bool is_f_contiguous(const Layout& layout, std::size_t itemsize);

// `axis` in [-ndim, ndim) mapped to [0, ndim). Throws IndexError ("axis 3 is out of bounds for
// array of dimension 2") otherwise.
[[nodiscard]] std::int64_t normalize_axis(std::int64_t axis, std::int64_t ndim,
                                          std::string_view caller = {});

// The layout of layout reshaped to new_shape in C order, if one exists that shares the memory,
// else nullopt (the caller copies). One extent may be -1: it is inferred from the size. Strides
// match NumPy's, extent-1 axes included, so a C-contiguous array gives c_contiguous(new_shape).
// An empty array always has a view, with c_contiguous strides. Throws ShapeError for two -1s,
// other negative extents, or a size that differs from layout's.
[[nodiscard]] std::optional<Layout> reshape_view(const Layout& layout, Shape new_shape,
                                                 std::size_t itemsize);

// Axis i of the result is axis axes[i] of layout; no axes reverses them. Axes may be negative.
// Throws IndexError for an axis out of range, Error for a repeated axis or a count other than
// ndim.
[[nodiscard]] Layout transpose(const Layout& layout, std::span<const std::int64_t> axes);

// Basic indexing, as NumPy's a[indices]: slices clip like Python's and may step backwards, an
// integer selects one element and drops its axis, newaxis inserts an axis of extent 1 (stride 0),
// at most one ellipsis stands for the axes no other index names, and axes left over are taken
// whole. An empty slice starts at the axis' origin with step 1, as in NumPy. Throws IndexError for
// a step of 0, an integer out of bounds, two ellipses, or more indices than axes.
[[nodiscard]] Layout slice(const Layout& layout, std::span<const Index> indices);

// layout seen as an array of shape `shape`: axes added at the front, and axes of extent 1
// stretched, step by 0 bytes, and so (as NumPy's) does every axis of extent 1 in the result.
// Throws ShapeError when layout's shape does not broadcast to `shape` (which must have at least
// layout's number of axes), or when `shape` fails checked_size.
[[nodiscard]] Layout broadcast_to(const Layout& layout, const Shape& shape, std::size_t itemsize);

// Removes the named axes, or every axis of extent 1 when axes is nullopt. Throws ShapeError for a
// named axis whose extent is not 1, IndexError for one out of range, Error for a repeated one.
[[nodiscard]] Layout squeeze(const Layout& layout,
                             const std::optional<std::vector<std::int64_t>>& axes);

// Inserts axes of extent 1 so that they sit at positions `axes` of the result, which has
// ndim + axes.size() axes; negative positions count from the result's end. The result is
// reshape_view's, as NumPy's expand_dims is its reshape. Throws IndexError for a position out of
// range, Error for a repeated one.
[[nodiscard]] Layout expand_dims(const Layout& layout, std::span<const std::int64_t> axes,
                                 std::size_t itemsize);

// The lowest byte offset the array touches and one past the highest, relative to the memory's
// base pointer: what an external buffer must cover. An empty array touches nothing: {0, 0}.
[[nodiscard]] std::pair<std::int64_t, std::int64_t> byte_extent(const Layout& layout,
                                                                std::size_t itemsize);

}  // namespace kiln::detail
