/// @file
/// Shapes, byte strides, NumPy-style indices and broadcasting of shapes.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace kiln {

/// Extents of an array's axes; () is a 0-d array holding one element.
using Shape = std::vector<std::int64_t>;
/// Distance in bytes between neighbours along each axis (NumPy's and CuPy's convention).
using Strides = std::vector<std::int64_t>;

/// Python's start:stop:step along one axis, with Python's clipping and negative steps.
/// An absent start or stop means the axis' end in the step's direction, so:
///   Slice{}                           is  :
///   Slice{1, std::nullopt, 2}         is  1::2
///   Slice{.stop = 3}                  is  :3
///   Slice{.step = -1}                 is  ::-1
struct Slice {
    /// The first index; none: the start (the end for a negative step).
    std::optional<std::int64_t> start = std::nullopt;
    /// The index to stop before; none: past the end (before the start for a negative step).
    std::optional<std::int64_t> stop = std::nullopt;
    /// The stride in elements; not 0.
    std::int64_t step = 1;

    /// Member-wise equality.
    friend bool operator==(const Slice&, const Slice&) = default;
};

/// Inserts an axis of size 1 (NumPy's np.newaxis / None).
struct NewAxis {
    /// Always equal.
    friend bool operator==(NewAxis, NewAxis) = default;
};
/// Stands for as many full slices as the other indices leave axes (Python's ...).
struct Ellipsis {
    /// Always equal.
    friend bool operator==(Ellipsis, Ellipsis) = default;
};
/// numpy.newaxis.
inline constexpr NewAxis newaxis{};
/// Python's `...` in an index.
inline constexpr Ellipsis ellipsis{};

/// One entry of an index expression, as in a[1::2, 3, np.newaxis, ...]. An integer selects one
/// element and drops its axis; negative integers count from the end. Integers convert from any
/// signed type; cast unsigned ones to std::int64_t. Written in C++ as
///   a.slice({kiln::Slice{1, std::nullopt, 2}, 3, kiln::newaxis, kiln::ellipsis})
using Index = std::variant<std::int64_t, Slice, NewAxis, Ellipsis>;

/// The shape that arrays of the given shapes broadcast to, by NumPy's rules: shapes are aligned
/// at their last axis, and along each axis the extents must be equal or 1. No shapes give ().
/// Throws ShapeError listing the shapes when they do not broadcast, or when a dimension is
/// negative.
[[nodiscard]] Shape broadcast_shapes(std::span<const Shape> shapes);
/// broadcast_shapes with the shapes in braces: broadcast_shapes({{2, 1}, {3}}).
[[nodiscard]] inline Shape broadcast_shapes(std::initializer_list<Shape> shapes) {
    return broadcast_shapes(std::span<const Shape>(shapes.begin(), shapes.size()));
}

/// "(2, 3)", "(5,)" or "()", as Python prints a tuple.
[[nodiscard]] std::string to_string(const Shape& shape);

}  // namespace kiln
