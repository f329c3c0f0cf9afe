// Shapes, byte strides, NumPy-style indices and broadcasting of shapes.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace kiln {

// Extents of an array's axes; () is a 0-d array holding one element.
using Shape = std::vector<std::int64_t>;
// Distance in bytes between neighbours along each axis (NumPy's and CuPy's convention).
using Strides = std::vector<std::int64_t>;

// Python's start:stop:step along one axis, with Python's clipping and negative steps.
// An absent start or stop means the axis' end in the step's direction, so:
//   Slice{}                           is  :
//   Slice{1, std::nullopt, 2}         is  1::2
//   Slice{.stop = 3}                  is  :3
//   Slice{.step = -1}                 is  ::-1
struct Slice {
    std::optional<std::int64_t> start = std::nullopt;
    std::optional<std::int64_t> stop = std::nullopt;
    std::int64_t step = 1;

    friend bool operator==(const Slice&, const Slice&) = default;
};

// Inserts an axis of size 1 (NumPy's np.newaxis / None).
struct NewAxis {
    friend bool operator==(NewAxis, NewAxis) = default;
};
// Stands for as many full slices as the other indices leave axes (Python's ...).
struct Ellipsis {
    friend bool operator==(Ellipsis, Ellipsis) = default;
};
inline constexpr NewAxis newaxis{};
inline constexpr Ellipsis ellipsis{};

// One entry of an index expression, as in a[1::2, 3, np.newaxis, ...]. An integer selects one
// element and drops its axis; negative integers count from the end. Integers convert from any
// signed type; cast unsigned ones to std::int64_t. Written in C++ as
//   a.slice({kiln::Slice{1, std::nullopt, 2}, 3, kiln::newaxis, kiln::ellipsis})
using Index = std::variant<std::int64_t, Slice, NewAxis, Ellipsis>;

// The shape that arrays of the given shapes broadcast to, by NumPy's rules: shapes are aligned
// at their last axis, and along each axis the extents must be equal or 1. No shapes give ().
// Throws ShapeError listing the shapes when they do not broadcast, or when a dimension is
// negative.
[[nodiscard]] Shape broadcast_shapes(std::span<const Shape> shapes);
[[nodiscard]] inline Shape broadcast_shapes(std::initializer_list<Shape> shapes) {
    return broadcast_shapes(std::span<const Shape>(shapes.begin(), shapes.size()));
}

// "(2, 3)", "(5,)" or "()", as Python prints a tuple.
[[nodiscard]] std::string to_string(const Shape& shape);

}  // namespace kiln
