// Broadcasting against NumPy: the two tables below were printed by this script, run with
// /usr/bin/python3 and NumPy 1.24, and pasted in. Each input is a view of one byte buffer, so
// offsets are the distance from the buffer's start.
//
//   import numpy as np
//   buf = np.zeros(1 << 14, np.uint8)  # every array is a view of buf; offsets count from its start
//   def at(x): return x.__array_interface__['data'][0] - buf.__array_interface__['data'][0]
//   def tup(t): return "{" + ", ".join(map(str, t)) + "}"
//   def lay(x): return f"{{{tup(x.shape)}, {tup(x.strides)}, {at(x)}}}"
//   def base(shape, dt, order='C'): return np.ndarray(shape, dt, buf, 4096, order=order)
//   def emit(name, rows): print(f"// {name}\n" + "\n".join(f"    {{{r}}}," for r in rows))
//
//   def shapes_row(s): return f"{{{', '.join(map(tup, s))}}}, {tup(np.broadcast_shapes(*s))}"
//   emit("broadcast_shapes", [shapes_row(s) for s in [
//       [], [()], [(), ()], [(3,), ()], [(2, 3), (3,)], [(4, 1), (3,)], [(8, 1, 6, 1), (7, 1, 5)],
//       [(5, 4), (1,)], [(15, 3, 5), (15, 1, 5)], [(15, 3, 5), (3, 1)], [(0,), (1,)],
//       [(1, 0), (3, 1)], [(2, 1), (1, 3), (4, 1, 1)], [(1,), (1, 1), (1, 1, 1)],
//       [(6, 7), (5, 6, 1), (7,), (5, 1, 7)]]])
//
//   def to_row(x, s): return f"{lay(x)}, {x.itemsize}, {tup(s)}, {lay(np.broadcast_to(x, s))}"
//   emit("broadcast_to", [to_row(x, s) for x, s in [
//       (base((4,), np.int64), (3, 4)), (base((1, 4), np.int32), (2, 3, 4)),
//       (base((3, 1), np.int16), (3, 4)), (base((), np.int64), (2, 2)), (base((), np.int8), ()),
//       (base((0,), np.int64), (3, 0)), (base((1,), np.int8), (0,)),
//       (base((1, 3), np.int64), (1, 3)),
//       (base((5, 6), np.int32)[::-2, ::3], (2, 3, 2)), (base((2, 3), np.int64), (2, 3)),
//       (base((3, 1), np.int64)[::2], (2, 1)), (base((2, 1, 3), np.float32, 'F'), (4, 2, 5, 3))]])
#include "core/layout.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/error.hpp>
#include <kiln/shape.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using kiln::Shape;
using kiln::detail::Layout;

std::string describe(const Layout& layout) {
    return "shape " + kiln::to_string(layout.shape) + " strides " +
           kiln::to_string(layout.strides) + " offset " + std::to_string(layout.offset);
}

using kiln::test::expect_error;

TEST(Shape, ToStringPrintsAPythonTuple) {
    EXPECT_EQ(kiln::to_string(Shape{}), "()");
    EXPECT_EQ(kiln::to_string(Shape{5}), "(5,)");
    EXPECT_EQ(kiln::to_string(Shape{2, 3}), "(2, 3)");
    EXPECT_EQ(kiln::to_string(Shape{0, -1, 9223372036854775807}), "(0, -1, 9223372036854775807)");
}

struct ShapesCase {
    std::vector<Shape> shapes;
    Shape expected;
};

TEST(Broadcast, BroadcastShapesMatchesNumPy) {
    const std::vector<ShapesCase> cases = {
        {{}, {}},
        {{{}}, {}},
        {{{}, {}}, {}},
        {{{3}, {}}, {3}},
        {{{2, 3}, {3}}, {2, 3}},
        {{{4, 1}, {3}}, {4, 3}},
        {{{8, 1, 6, 1}, {7, 1, 5}}, {8, 7, 6, 5}},
        {{{5, 4}, {1}}, {5, 4}},
        {{{15, 3, 5}, {15, 1, 5}}, {15, 3, 5}},
        {{{15, 3, 5}, {3, 1}}, {15, 3, 5}},
        {{{0}, {1}}, {0}},
        {{{1, 0}, {3, 1}}, {3, 0}},
        {{{2, 1}, {1, 3}, {4, 1, 1}}, {4, 2, 3}},
        {{{1}, {1, 1}, {1, 1, 1}}, {1, 1, 1}},
        {{{6, 7}, {5, 6, 1}, {7}, {5, 1, 7}}, {5, 6, 7}},
    };
    for (const ShapesCase& c : cases) {
        std::string shapes;
        for (const Shape& shape : c.shapes) {
            shapes += kiln::to_string(shape) + " ";
        }
        SCOPED_TRACE(shapes);
        EXPECT_EQ(kiln::broadcast_shapes(c.shapes), c.expected);
    }
    EXPECT_EQ(kiln::broadcast_shapes({{8, 1, 6, 1}, {7, 1, 5}}), (Shape{8, 7, 6, 5}));
}

TEST(Broadcast, BroadcastShapesListsTheShapesThatClash) {
    expect_error<kiln::ShapeError>(
        [] {
            (void)kiln::broadcast_shapes({{2, 3}, {4}});
        },
        "kiln: operands could not be broadcast together with shapes (2, 3) (4,)");
    expect_error<kiln::ShapeError>(
        [] {
            (void)kiln::broadcast_shapes({{2, 1}, {3}, {4, 1}});
        },
        "kiln: operands could not be broadcast together with shapes (2, 1) (3,) (4, 1)");
    expect_error<kiln::ShapeError>(
        [] {
            (void)kiln::broadcast_shapes({{0}, {2}});
        },
        "kiln: operands could not be broadcast together with shapes (0,) (2,)");
    expect_error<kiln::ShapeError>(
        [] {
            (void)kiln::broadcast_shapes({{3}, {-1}});
        },
        "kiln: broadcast_shapes: negative dimensions are not allowed in shape (-1,)");
}

struct ToCase {
    Layout input;
    std::size_t itemsize;
    Shape shape;
    Layout expected;
};

TEST(Broadcast, BroadcastToMatchesNumPy) {
    const std::vector<ToCase> cases = {
        {{{4}, {8}, 4096}, 8, {3, 4}, {{3, 4}, {0, 8}, 4096}},
        {{{1, 4}, {16, 4}, 4096}, 4, {2, 3, 4}, {{2, 3, 4}, {0, 0, 4}, 4096}},
        {{{3, 1}, {2, 2}, 4096}, 2, {3, 4}, {{3, 4}, {2, 0}, 4096}},
        {{{}, {}, 4096}, 8, {2, 2}, {{2, 2}, {0, 0}, 4096}},
        {{{}, {}, 4096}, 1, {}, {{}, {}, 4096}},
        {{{0}, {8}, 4096}, 8, {3, 0}, {{3, 0}, {0, 8}, 4096}},
        {{{1}, {1}, 4096}, 1, {0}, {{0}, {0}, 4096}},
        {{{1, 3}, {24, 8}, 4096}, 8, {1, 3}, {{1, 3}, {0, 8}, 4096}},
        {{{3, 2}, {-48, 12}, 4192}, 4, {2, 3, 2}, {{2, 3, 2}, {0, -48, 12}, 4192}},
        {{{2, 3}, {24, 8}, 4096}, 8, {2, 3}, {{2, 3}, {24, 8}, 4096}},
        {{{2, 1}, {16, 8}, 4096}, 8, {2, 1}, {{2, 1}, {16, 0}, 4096}},
        {{{2, 1, 3}, {4, 8, 8}, 4096}, 4, {4, 2, 5, 3}, {{4, 2, 5, 3}, {0, 4, 0, 8}, 4096}},
    };
    for (const ToCase& c : cases) {
        SCOPED_TRACE(describe(c.input) + " to " + kiln::to_string(c.shape));
        EXPECT_EQ(describe(kiln::detail::broadcast_to(c.input, c.shape, c.itemsize)),
                  describe(c.expected));
    }
}

TEST(Broadcast, BroadcastToErrorsNameBothShapes) {
    using kiln::detail::broadcast_to;
    const Layout a{{2, 3}, {24, 8}, 0};
    expect_error<kiln::ShapeError>([&] { (void)broadcast_to(a, {3}, 8); },
                                   "kiln: broadcast_to: cannot broadcast an array of shape (2, 3) "
                                   "to shape (3,): the target has fewer dimensions");
    expect_error<kiln::ShapeError>(
        [&] {
            (void)broadcast_to(a, {4, 3}, 8);
        },
        "kiln: broadcast_to: cannot broadcast an array of shape (2, 3) "
        "to shape (4, 3)");
    expect_error<kiln::ShapeError>(
        [&] {
            (void)broadcast_to(a, {2, 0}, 8);
        },
        "kiln: broadcast_to: cannot broadcast an array of shape (2, 3) "
        "to shape (2, 0)");
    expect_error<kiln::ShapeError>(
        [&] {
            (void)broadcast_to(a, {-1, 2, 3}, 8);
        },
        "kiln: broadcast_to: negative dimensions are not allowed in "
        "shape (-1, 2, 3)");
    // NumPy refuses this too ("iterator is too large"): 2**80 elements do not fit in int64.
    expect_error<kiln::ShapeError>(
        [] {
            (void)broadcast_to(Layout{}, {std::int64_t{1} << 40, std::int64_t{1} << 40}, 8);
        },
        "kiln: broadcast_to: an array of shape (1099511627776, 1099511627776) and itemsize 8 is "
        "too large: its size in bytes overflows int64");
}

}  // namespace
