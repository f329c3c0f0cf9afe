// Layout arithmetic against NumPy: every table below was printed by this script, run with
// /usr/bin/python3 and NumPy 1.24, and pasted in. Each input is a view of one byte buffer, so
// offsets are the distance from the buffer's start; a reshape that NumPy had to copy is nullopt.
//
//   import numpy as np
//   buf = np.zeros(1 << 14, np.uint8)  # every array is a view of buf; offsets count from its start
//   def at(x): return x.__array_interface__['data'][0] - buf.__array_interface__['data'][0]
//   def tup(t): return "{" + ", ".join(map(str, t)) + "}"
//   def lay(x): return f"{{{tup(x.shape)}, {tup(x.strides)}, {at(x)}}}"
//   def base(shape, dt, order='C'): return np.ndarray(shape, dt, buf, 4096, order=order)
//   def idx(i):
//       if i is None: return "kiln::newaxis"
//       if i is Ellipsis: return "kiln::ellipsis"
//       if isinstance(i, int): return str(i)
//       v = lambda b: "std::nullopt" if b is None else str(b)
//       return f"kiln::Slice{{{v(i.start)}, {v(i.stop)}, {1 if i.step is None else i.step}}}"
//   def emit(name, rows): print(f"// {name}\n" + "\n".join(f"    {{{r}}}," for r in rows))
//   s = np.s_
//
//   two = [s[1:, ::2], s[::-1], s[:, ::-2], s[-1], s[1, -1], s[5:], s[-10:2], s[..., 1],
//          s[None, :, None], s[1:3, None, ::-1], s[::-1, ::-3], s[-2::-1], s[:0:-1], s[10::-1],
//          s[2:-10:-1], s[...], s[()], s[..., None], s[1:1, 3::-1], s[:, 2:0:-1],
//          s[-3:-1, -100:100:3]]
//   three = [s[1, ..., ::2], s[:, 1], s[..., -1, 1:], s[::-1, None, 1:3, 2], s[0, 0, 0],
//            s[None, ...], s[-1:, -2::-1, 100::-2], s[:, None, ..., None, -3]]
//   zero = [s[()], s[None], s[...], s[None, ..., None]]
//   rows = []
//   for x, exprs in [(base((3, 4), np.int64), two), (base((3, 4), np.int32, 'F'), two),
//                    (base((6, 9), np.int16)[::-2, 1::2], two),
//                    (base((2, 3, 4), np.int64), three), (base((2, 3, 4), np.int8, 'F'), three),
//                    (base((4, 3, 2), np.int32).transpose(1, 2, 0)[:, ::-1], three),
//                    (base((), np.float64), zero)]:
//       for e in (e if isinstance(e, tuple) else (e,) for e in exprs):
//           v = x[e] if Ellipsis in e else x[e + (...,)]  # a view even when every axis is indexed
//           rows.append(f"{lay(x)}, {{{', '.join(map(idx, e))}}}, {lay(v)}")
//   emit("slice", rows)
//
//   rows = []
//   for x, shapes in [
//           (base((2, 3, 4), np.int64), [(6, 4), (4, 6), (24,), (2, 12), (-1,), (3, -1, 2),
//                                        (1, 24, 1), (2, 1, 3, 1, 4), (4, 3, 2)]),
//           (base((2, 3, 4), np.int32, 'F'), [(6, 4), (2, 12), (-1,), (1, 2, 3, 4), (2, 3, 2, 2),
//                                             (6, -1, 1)]),
//           (base((4, 6), np.int64)[:, ::2], [(12,), (2, 2, 3), (4, 3, 1), (3, 4)]),
//           (base((4, 6), np.int16)[:, :3], [(12,), (2, 2, 3), (1, 4, 1, 3), (3, 4)]),
//           (base((2, 3, 4), np.int8).transpose(1, 0, 2), [(3, 8), (6, 4), (3, 2, 2, 2),
//                                                          (3, 1, 2, 4)]),
//           (base((3, 4), np.float32)[::-1], [(12,), (3, 2, 2), (1, 3, 4)]),
//           (base((1, 5), np.int64)[:, ::2], [(3,), (3, 1), (1, 1, 3)]),
//           (np.broadcast_to(base((4,), np.int64), (3, 4)), [(12,), (3, 2, 2), (3, 4, 1)]),
//           (base((0, 3), np.int64), [(3, 0), (0,), (-1, 3), (0, 1, 5, 0)]),
//           (base((4, 6), np.int32)[2:2, ::2], [(3, 0), (0, 7)]),
//           (base((), np.float64), [(1, 1), (1,), ()]), (base((1, 1), np.int16), [(), (1,)]),
//           (base((5, 1, 3), np.int64)[::2, :, ::-1], [(9,), (3, 3), (3, 1, 3, 1), (1, 3, 3)])]:
//       for shape in shapes:
//           r = x.reshape(shape)
//           view = 'Layout' + lay(r) if r.base is buf else 'std::nullopt'
//           rows.append(f"{lay(x)}, {x.itemsize}, {tup(shape)}, {view}")
//   emit("reshape (std::nullopt: NumPy copied)", rows)
//
//   rows = []
//   c234, f34 = base((2, 3, 4), np.int64), base((3, 4), np.int32, 'F')
//   for x, axes in [(c234, ()), (c234, (2, 0, 1)), (c234, (-1, 0, -2)), (c234, (0, 1, 2)),
//                   (f34, ()), (f34, (1, 0)), (base((5, 6), np.int16)[::-2, 1::3], ()),
//                   (base((), np.int8), ()), (base((7,), np.int8)[::-3], (0,)),
//                   (base((2, 1, 3, 2), np.float64)[:, :, ::-1], (3, 1, 0, 2))]:
//       rows.append(f"{lay(x)}, {tup(axes)}, {lay(x.transpose(axes or None))}")
//   emit("transpose", rows)
//
//   rows = []
//   x = base((1, 3, 1, 4), np.int32)[:, ::-1]
//   for x, axes in [(x, None), (x, (0,)), (x, (-2,)), (x, (0, 2)), (x, ()), (x, (2, -4)),
//                   (base((1,), np.int64), None), (base((), np.int64), None),
//                   (base((2, 3), np.int64), None), (base((1, 1, 1), np.int16)[:, :, ::-1], (1,))]:
//       a = 'std::nullopt' if axes is None else f"std::vector<std::int64_t>{tup(axes)}"
//       rows.append(f"{lay(x)}, {a}, {lay(np.squeeze(x, axes))}")
//   emit("squeeze", rows)
//
//   rows = []
//   x = base((3, 4), np.int64)[:, 1::2]
//   for x, axes in [(x, (0,)), (x, (-1,)), (x, (1,)), (x, (0, 3)), (x, (-1, -2)), (x, (0, 2)),
//                   (x, (3, 0, -3)), (x, ()), (base((), np.int32), (0,)),
//                   (base((), np.int32), (0, 1)),
//                   (base((2, 1, 3), np.int16)[:, :, ::-1], (-1,)),
//                   (base((4, 6), np.int32)[2:2, ::2], (0,))]:
//       rows.append(f"{lay(x)}, {x.itemsize}, {tup(axes)}, {lay(np.expand_dims(x, axes))}")
//   emit("expand_dims", rows)
//
//   rows = []
//   for shape, dt in [((), np.int8), ((5,), np.int64), ((2, 3), np.int32), ((2, 3, 4), np.int16),
//                     ((3, 1, 2), np.int64), ((1, 1), np.float32), ((0,), np.int64),
//                     ((2, 0, 3), np.int32), ((0, 1, 4), np.int8), ((4, 0), np.int64)]:
//       # NumPy 1.24 gives a new empty array zero strides, but reshapes one to these (CuPy's).
//       def make(order):
//           if np.prod(shape):
//               return np.empty(shape, dt, order=order)
//           return np.empty(1, dt)[:0].reshape(shape, order=order)
//       c, f = make('C').strides, make('F').strides
//       rows.append(f"{tup(shape)}, {np.dtype(dt).itemsize}, {tup(c)}, {tup(f)}")
//   emit("c_contiguous and f_contiguous", rows)
//
//   rows = []
//   for shape, strides, dt in [
//           ((3, 4), (32, 8), np.int64), ((3, 4), (8, 24), np.int64), ((3, 4), (16, 4), np.int32),
//           ((2, 4), (64, 8), np.int64), ((1, 4), (123, 8), np.int64),
//           ((4, 1), (8, 123), np.int64),
//           ((4, 1), (8, 8), np.int64), ((1, 1), (5, 7), np.int16), ((0, 3), (7, 5), np.int64),
//           ((3, 0), (-4, 0), np.int32), ((), (), np.int64), ((4,), (-8,), np.int64),
//           ((4,), (4,), np.int32), ((4,), (8,), np.int32), ((2, 3, 4), (12, 4, 24), np.int8),
//           ((2, 3, 4), (1, 2, 6), np.int8), ((2, 1, 3), (3, 100, 1), np.int8),
//           ((2, 1, 3), (1, 100, 2), np.int8), ((3, 2), (0, 8), np.int64), ((1,), (0,), np.int64),
//           ((2, 2), (16, 8), np.int64)]:
//       x = np.ndarray(shape, dt, buf, 4096, strides)
//       c, f = (str(flag).lower() for flag in (x.flags.c_contiguous, x.flags.f_contiguous))
//       rows.append(f"{lay(x)}, {x.itemsize}, {c}, {f}")
//   emit("is_c_contiguous and is_f_contiguous", rows)
//
//   rows = []
//   for x in [base((3, 4), np.int64), base((3, 4), np.int32, 'F'),
//             base((6, 9), np.int16)[::-2, 1::2],
//             base((2, 3, 4), np.int64)[:, ::-1, ::2], base((), np.float64),
//             base((5,), np.int8)[::-1], np.broadcast_to(base((4,), np.int64), (3, 4)),
//             base((2, 3, 4), np.int8, 'F').transpose(2, 0, 1)[::-3]]:
//       low, high = (b - buf.__array_interface__['data'][0] for b in np.byte_bounds(x))
//       rows.append(f"{lay(x)}, {x.itemsize}, {low}, {high}")
//   emit("byte_extent", rows)
#include "core/layout.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

using kiln::Index;
using kiln::Shape;
using kiln::Strides;
using kiln::detail::Layout;

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t int64_min = std::numeric_limits<std::int64_t>::min();

std::string describe(const Layout& layout) {
    return "shape " + kiln::to_string(layout.shape) + " strides " +
           kiln::to_string(layout.strides) + " offset " + std::to_string(layout.offset);
}

std::string describe(const std::optional<Layout>& layout) {
    return layout ? describe(*layout) : "a copy";
}

using kiln::test::expect_error;

struct SizeCase {
    Shape shape;
    std::size_t itemsize;
    std::int64_t size;
};

TEST(Layout, CheckedSizeCountsElements) {
    // Closed forms: the product of the extents, 1 for (), 0 with an extent of 0; the byte check
    // skips zero extents, as NumPy's does (np.empty((0, 2**61), np.int8) works).
    const std::vector<SizeCase> cases = {
        {{}, 8, 1},
        {{5}, 4, 5},
        {{2, 3, 4}, 2, 24},
        {{3, 0}, 8, 0},
        {{0, std::int64_t{1} << 61}, 1, 0},
        {{std::int64_t{1} << 59}, 8, std::int64_t{1} << 59},
        {{int64_max}, 1, int64_max},
    };
    for (const SizeCase& c : cases) {
        EXPECT_EQ(kiln::detail::checked_size(c.shape, c.itemsize), c.size)
            << kiln::to_string(c.shape);
    }
    EXPECT_EQ((Layout{{2, 3, 4}, {96, 32, 8}, 0}.size()), 24);
    EXPECT_EQ(Layout{}.size(), 1);
    EXPECT_EQ((Layout{{2, 0}, {8, 8}, 0}.size()), 0);
    EXPECT_EQ((Layout{{2, 3}, {24, 8}, 0}.ndim()), 2);
}

TEST(Layout, CheckedSizeRejectsNegativeAndOversizedShapes) {
    using kiln::detail::checked_size;
    expect_error<kiln::ShapeError>(
        [] {
            (void)checked_size({2, -1}, 4, "empty");
        },
        "kiln: empty: negative dimensions are not allowed in shape "
        "(2, -1)");
    expect_error<kiln::ShapeError>([] { (void)checked_size({-3}, 4); },
                                   "kiln: negative dimensions are not allowed in shape (-3,)");
    expect_error<kiln::ShapeError>(
        [] {
            (void)checked_size({std::int64_t{1} << 61, 4}, 1, "zeros");
        },
        "kiln: zeros: an array of shape (2305843009213693952, 4) and itemsize 1 is too large: "
        "its size in bytes overflows int64");
    expect_error<kiln::ShapeError>(
        [] { (void)checked_size({std::int64_t{1} << 60}, 8); },
        "kiln: an array of shape (1152921504606846976,) and itemsize 8 is too large: its size in "
        "bytes overflows int64");
    // NumPy refuses this empty shape too ("array is too big"): its contiguous strides overflow.
    expect_error<kiln::ShapeError>(
        [] {
            (void)checked_size({0, std::int64_t{1} << 62, std::int64_t{1} << 62}, 1);
        },
        "kiln: an array of shape (0, 4611686018427387904, 4611686018427387904) and itemsize 1 is "
        "too large: its size in bytes overflows int64");
    expect_error<kiln::ShapeError>(
        [] { (void)checked_size({}, std::size_t{1} << 63); },
        "kiln: an array of shape () and itemsize 9223372036854775808 is too large: its size in "
        "bytes overflows int64");
    expect_error<kiln::Error>(
        [] {
            (void)Layout{{std::int64_t{1} << 32, std::int64_t{1} << 32}, {0, 0}, 0}.size();
        },
        "kiln: the size of an array of shape (4294967296, 4294967296) overflows int64");
}

struct ContiguousCase {
    Shape shape;
    std::size_t itemsize;
    Strides c_strides;
    Strides f_strides;
};

TEST(Layout, ContiguousStridesMatchNumPy) {
    const std::vector<ContiguousCase> cases = {
        {{}, 1, {}, {}},
        {{5}, 8, {8}, {8}},
        {{2, 3}, 4, {12, 4}, {4, 8}},
        {{2, 3, 4}, 2, {24, 8, 2}, {2, 4, 12}},
        {{3, 1, 2}, 8, {16, 16, 8}, {8, 24, 24}},
        {{1, 1}, 4, {4, 4}, {4, 4}},
        {{0}, 8, {8}, {8}},
        {{2, 0, 3}, 4, {12, 12, 4}, {4, 8, 8}},
        {{0, 1, 4}, 1, {4, 4, 1}, {1, 1, 1}},
        {{4, 0}, 8, {8, 8}, {8, 32}},
    };
    for (const ContiguousCase& c : cases) {
        SCOPED_TRACE(kiln::to_string(c.shape) + " itemsize " + std::to_string(c.itemsize));
        const Layout c_order = kiln::detail::c_contiguous(c.shape, c.itemsize);
        const Layout f_order = kiln::detail::f_contiguous(c.shape, c.itemsize);
        EXPECT_EQ(describe(c_order), describe(Layout{c.shape, c.c_strides, 0}));
        EXPECT_EQ(describe(f_order), describe(Layout{c.shape, c.f_strides, 0}));
        EXPECT_TRUE(kiln::detail::is_c_contiguous(c_order, c.itemsize));
        EXPECT_TRUE(kiln::detail::is_f_contiguous(f_order, c.itemsize));
    }
    expect_error<kiln::ShapeError>(
        [] {
            (void)kiln::detail::f_contiguous({3, -2}, 8, "empty");
        },
        "kiln: empty: negative dimensions are not allowed in shape (3, -2)");
}

struct FlagsCase {
    Layout layout;
    std::size_t itemsize;
    bool c_contiguous;
    bool f_contiguous;
};

TEST(Layout, ContiguityFlagsMatchNumPy) {
    const std::vector<FlagsCase> cases = {
        {{{3, 4}, {32, 8}, 4096}, 8, true, false},
        {{{3, 4}, {8, 24}, 4096}, 8, false, true},
        {{{3, 4}, {16, 4}, 4096}, 4, true, false},
        {{{2, 4}, {64, 8}, 4096}, 8, false, false},
        {{{1, 4}, {123, 8}, 4096}, 8, true, true},
        {{{4, 1}, {8, 123}, 4096}, 8, true, true},
        {{{4, 1}, {8, 8}, 4096}, 8, true, true},
        {{{1, 1}, {5, 7}, 4096}, 2, true, true},
        {{{0, 3}, {7, 5}, 4096}, 8, true, true},
        {{{3, 0}, {-4, 0}, 4096}, 4, true, true},
        {{{}, {}, 4096}, 8, true, true},
        {{{4}, {-8}, 4096}, 8, false, false},
        {{{4}, {4}, 4096}, 4, true, true},
        {{{4}, {8}, 4096}, 4, false, false},
        {{{2, 3, 4}, {12, 4, 24}, 4096}, 1, false, false},
        {{{2, 3, 4}, {1, 2, 6}, 4096}, 1, false, true},
        {{{2, 1, 3}, {3, 100, 1}, 4096}, 1, true, false},
        {{{2, 1, 3}, {1, 100, 2}, 4096}, 1, false, true},
        {{{3, 2}, {0, 8}, 4096}, 8, false, false},
        {{{1}, {0}, 4096}, 8, true, true},
        {{{2, 2}, {16, 8}, 4096}, 8, true, false},
    };
    for (const FlagsCase& c : cases) {
        SCOPED_TRACE(describe(c.layout) + " itemsize " + std::to_string(c.itemsize));
        EXPECT_EQ(kiln::detail::is_c_contiguous(c.layout, c.itemsize), c.c_contiguous);
        EXPECT_EQ(kiln::detail::is_f_contiguous(c.layout, c.itemsize), c.f_contiguous);
    }
}

TEST(Layout, NormalizeAxisMapsNegativeAxesAndNamesTheCaller) {
    using kiln::detail::normalize_axis;
    EXPECT_EQ(normalize_axis(0, 2), 0);
    EXPECT_EQ(normalize_axis(1, 2), 1);
    EXPECT_EQ(normalize_axis(-1, 2), 1);
    EXPECT_EQ(normalize_axis(-2, 2), 0);
    expect_error<kiln::IndexError>([] { (void)normalize_axis(3, 2); },
                                   "kiln: axis 3 is out of bounds for array of dimension 2");
    expect_error<kiln::IndexError>([] { (void)normalize_axis(-3, 2, "sum"); },
                                   "kiln: sum: axis -3 is out of bounds for array of dimension 2");
    expect_error<kiln::IndexError>([] { (void)normalize_axis(0, 0, "sum"); },
                                   "kiln: sum: axis 0 is out of bounds for array of dimension 0");
    expect_error<kiln::IndexError>(
        [] { (void)normalize_axis(int64_min, 3); },
        "kiln: axis -9223372036854775808 is out of bounds for array of dimension 3");
}

struct SliceCase {
    Layout input;
    std::vector<Index> indices;
    Layout expected;
};

TEST(Layout, SliceMatchesNumPy) {
    const std::vector<SliceCase> cases = {
        {{{3, 4}, {32, 8}, 4096},
         {kiln::Slice{1, std::nullopt, 1}, kiln::Slice{std::nullopt, std::nullopt, 2}},
         {{2, 2}, {32, 16}, 4128}},
        {{{3, 4}, {32, 8}, 4096},
         {kiln::Slice{std::nullopt, std::nullopt, -1}},
         {{3, 4}, {-32, 8}, 4160}},
        {{{3, 4}, {32, 8}, 4096},
         {kiln::Slice{std::nullopt, std::nullopt, 1}, kiln::Slice{std::nullopt, std::nullopt, -2}},
         {{3, 2}, {32, -16}, 4120}},
        {{{3, 4}, {32, 8}, 4096}, {-1}, {{4}, {8}, 4160}},
        {{{3, 4}, {32, 8}, 4096}, {1, -1}, {{}, {}, 4152}},
        {{{3, 4}, {32, 8}, 4096}, {kiln::Slice{5, std::nullopt, 1}}, {{0, 4}, {32, 8}, 4096}},
        {{{3, 4}, {32, 8}, 4096}, {kiln::Slice{-10, 2, 1}}, {{2, 4}, {32, 8}, 4096}},
        {{{3, 4}, {32, 8}, 4096}, {kiln::ellipsis, 1}, {{3}, {32}, 4104}},
        {{{3, 4}, {32, 8}, 4096},
         {kiln::newaxis, kiln::Slice{std::nullopt, std::nullopt, 1}, kiln::newaxis},
         {{1, 3, 1, 4}, {0, 32, 0, 8}, 4096}},
        {{{3, 4}, {32, 8}, 4096},
         {kiln::Slice{1, 3, 1}, kiln::newaxis, kiln::Slice{std::nullopt, std::nullopt, -1}},
         {{2, 1, 4}, {32, 0, -8}, 4152}},
        {{{3, 4}, {32, 8}, 4096},
         {kiln::Slice{std::nullopt, std::nullopt, -1}, kiln::Slice{std::nullopt, std::nullopt, -3}},
         {{3, 2}, {-32, -24}, 4184}},
        {{{3, 4}, {32, 8}, 4096}, {kiln::Slice{-2, std::nullopt, -1}}, {{2, 4}, {-32, 8}, 4128}},
        {{{3, 4}, {32, 8}, 4096}, {kiln::Slice{std::nullopt, 0, -1}}, {{2, 4}, {-32, 8}, 4160}},
        {{{3, 4}, {32, 8}, 4096}, {kiln::Slice{10, std::nullopt, -1}}, {{3, 4}, {-32, 8}, 4160}},
        {{{3, 4}, {32, 8}, 4096}, {kiln::Slice{2, -10, -1}}, {{3, 4}, {-32, 8}, 4160}},
        {{{3, 4}, {32, 8}, 4096}, {kiln::ellipsis}, {{3, 4}, {32, 8}, 4096}},
        {{{3, 4}, {32, 8}, 4096}, {}, {{3, 4}, {32, 8}, 4096}},
        {{{3, 4}, {32, 8}, 4096}, {kiln::ellipsis, kiln::newaxis}, {{3, 4, 1}, {32, 8, 0}, 4096}},
        {{{3, 4}, {32, 8}, 4096},
         {kiln::Slice{1, 1, 1}, kiln::Slice{3, std::nullopt, -1}},
         {{0, 4}, {32, -8}, 4120}},
        {{{3, 4}, {32, 8}, 4096},
         {kiln::Slice{std::nullopt, std::nullopt, 1}, kiln::Slice{2, 0, -1}},
         {{3, 2}, {32, -8}, 4112}},
        {{{3, 4}, {32, 8}, 4096},
         {kiln::Slice{-3, -1, 1}, kiln::Slice{-100, 100, 3}},
         {{2, 2}, {32, 24}, 4096}},
        {{{3, 4}, {4, 12}, 4096},
         {kiln::Slice{1, std::nullopt, 1}, kiln::Slice{std::nullopt, std::nullopt, 2}},
         {{2, 2}, {4, 24}, 4100}},
        {{{3, 4}, {4, 12}, 4096},
         {kiln::Slice{std::nullopt, std::nullopt, -1}},
         {{3, 4}, {-4, 12}, 4104}},
        {{{3, 4}, {4, 12}, 4096},
         {kiln::Slice{std::nullopt, std::nullopt, 1}, kiln::Slice{std::nullopt, std::nullopt, -2}},
         {{3, 2}, {4, -24}, 4132}},
        {{{3, 4}, {4, 12}, 4096}, {-1}, {{4}, {12}, 4104}},
        {{{3, 4}, {4, 12}, 4096}, {1, -1}, {{}, {}, 4136}},
        {{{3, 4}, {4, 12}, 4096}, {kiln::Slice{5, std::nullopt, 1}}, {{0, 4}, {4, 12}, 4096}},
        {{{3, 4}, {4, 12}, 4096}, {kiln::Slice{-10, 2, 1}}, {{2, 4}, {4, 12}, 4096}},
        {{{3, 4}, {4, 12}, 4096}, {kiln::ellipsis, 1}, {{3}, {4}, 4108}},
        {{{3, 4}, {4, 12}, 4096},
         {kiln::newaxis, kiln::Slice{std::nullopt, std::nullopt, 1}, kiln::newaxis},
         {{1, 3, 1, 4}, {0, 4, 0, 12}, 4096}},
        {{{3, 4}, {4, 12}, 4096},
         {kiln::Slice{1, 3, 1}, kiln::newaxis, kiln::Slice{std::nullopt, std::nullopt, -1}},
         {{2, 1, 4}, {4, 0, -12}, 4136}},
        {{{3, 4}, {4, 12}, 4096},
         {kiln::Slice{std::nullopt, std::nullopt, -1}, kiln::Slice{std::nullopt, std::nullopt, -3}},
         {{3, 2}, {-4, -36}, 4140}},
        {{{3, 4}, {4, 12}, 4096}, {kiln::Slice{-2, std::nullopt, -1}}, {{2, 4}, {-4, 12}, 4100}},
        {{{3, 4}, {4, 12}, 4096}, {kiln::Slice{std::nullopt, 0, -1}}, {{2, 4}, {-4, 12}, 4104}},
        {{{3, 4}, {4, 12}, 4096}, {kiln::Slice{10, std::nullopt, -1}}, {{3, 4}, {-4, 12}, 4104}},
        {{{3, 4}, {4, 12}, 4096}, {kiln::Slice{2, -10, -1}}, {{3, 4}, {-4, 12}, 4104}},
        {{{3, 4}, {4, 12}, 4096}, {kiln::ellipsis}, {{3, 4}, {4, 12}, 4096}},
        {{{3, 4}, {4, 12}, 4096}, {}, {{3, 4}, {4, 12}, 4096}},
        {{{3, 4}, {4, 12}, 4096}, {kiln::ellipsis, kiln::newaxis}, {{3, 4, 1}, {4, 12, 0}, 4096}},
        {{{3, 4}, {4, 12}, 4096},
         {kiln::Slice{1, 1, 1}, kiln::Slice{3, std::nullopt, -1}},
         {{0, 4}, {4, -12}, 4132}},
        {{{3, 4}, {4, 12}, 4096},
         {kiln::Slice{std::nullopt, std::nullopt, 1}, kiln::Slice{2, 0, -1}},
         {{3, 2}, {4, -12}, 4120}},
        {{{3, 4}, {4, 12}, 4096},
         {kiln::Slice{-3, -1, 1}, kiln::Slice{-100, 100, 3}},
         {{2, 2}, {4, 36}, 4096}},
        {{{3, 4}, {-36, 4}, 4188},
         {kiln::Slice{1, std::nullopt, 1}, kiln::Slice{std::nullopt, std::nullopt, 2}},
         {{2, 2}, {-36, 8}, 4152}},
        {{{3, 4}, {-36, 4}, 4188},
         {kiln::Slice{std::nullopt, std::nullopt, -1}},
         {{3, 4}, {36, 4}, 4116}},
        {{{3, 4}, {-36, 4}, 4188},
         {kiln::Slice{std::nullopt, std::nullopt, 1}, kiln::Slice{std::nullopt, std::nullopt, -2}},
         {{3, 2}, {-36, -8}, 4200}},
        {{{3, 4}, {-36, 4}, 4188}, {-1}, {{4}, {4}, 4116}},
        {{{3, 4}, {-36, 4}, 4188}, {1, -1}, {{}, {}, 4164}},
        {{{3, 4}, {-36, 4}, 4188}, {kiln::Slice{5, std::nullopt, 1}}, {{0, 4}, {-36, 4}, 4188}},
        {{{3, 4}, {-36, 4}, 4188}, {kiln::Slice{-10, 2, 1}}, {{2, 4}, {-36, 4}, 4188}},
        {{{3, 4}, {-36, 4}, 4188}, {kiln::ellipsis, 1}, {{3}, {-36}, 4192}},
        {{{3, 4}, {-36, 4}, 4188},
         {kiln::newaxis, kiln::Slice{std::nullopt, std::nullopt, 1}, kiln::newaxis},
         {{1, 3, 1, 4}, {0, -36, 0, 4}, 4188}},
        {{{3, 4}, {-36, 4}, 4188},
         {kiln::Slice{1, 3, 1}, kiln::newaxis, kiln::Slice{std::nullopt, std::nullopt, -1}},
         {{2, 1, 4}, {-36, 0, -4}, 4164}},
        {{{3, 4}, {-36, 4}, 4188},
         {kiln::Slice{std::nullopt, std::nullopt, -1}, kiln::Slice{std::nullopt, std::nullopt, -3}},
         {{3, 2}, {36, -12}, 4128}},
        {{{3, 4}, {-36, 4}, 4188}, {kiln::Slice{-2, std::nullopt, -1}}, {{2, 4}, {36, 4}, 4152}},
        {{{3, 4}, {-36, 4}, 4188}, {kiln::Slice{std::nullopt, 0, -1}}, {{2, 4}, {36, 4}, 4116}},
        {{{3, 4}, {-36, 4}, 4188}, {kiln::Slice{10, std::nullopt, -1}}, {{3, 4}, {36, 4}, 4116}},
        {{{3, 4}, {-36, 4}, 4188}, {kiln::Slice{2, -10, -1}}, {{3, 4}, {36, 4}, 4116}},
        {{{3, 4}, {-36, 4}, 4188}, {kiln::ellipsis}, {{3, 4}, {-36, 4}, 4188}},
        {{{3, 4}, {-36, 4}, 4188}, {}, {{3, 4}, {-36, 4}, 4188}},
        {{{3, 4}, {-36, 4}, 4188}, {kiln::ellipsis, kiln::newaxis}, {{3, 4, 1}, {-36, 4, 0}, 4188}},
        {{{3, 4}, {-36, 4}, 4188},
         {kiln::Slice{1, 1, 1}, kiln::Slice{3, std::nullopt, -1}},
         {{0, 4}, {-36, -4}, 4200}},
        {{{3, 4}, {-36, 4}, 4188},
         {kiln::Slice{std::nullopt, std::nullopt, 1}, kiln::Slice{2, 0, -1}},
         {{3, 2}, {-36, -4}, 4196}},
        {{{3, 4}, {-36, 4}, 4188},
         {kiln::Slice{-3, -1, 1}, kiln::Slice{-100, 100, 3}},
         {{2, 2}, {-36, 12}, 4188}},
        {{{2, 3, 4}, {96, 32, 8}, 4096},
         {1, kiln::ellipsis, kiln::Slice{std::nullopt, std::nullopt, 2}},
         {{3, 2}, {32, 16}, 4192}},
        {{{2, 3, 4}, {96, 32, 8}, 4096},
         {kiln::Slice{std::nullopt, std::nullopt, 1}, 1},
         {{2, 4}, {96, 8}, 4128}},
        {{{2, 3, 4}, {96, 32, 8}, 4096},
         {kiln::ellipsis, -1, kiln::Slice{1, std::nullopt, 1}},
         {{2, 3}, {96, 8}, 4168}},
        {{{2, 3, 4}, {96, 32, 8}, 4096},
         {kiln::Slice{std::nullopt, std::nullopt, -1}, kiln::newaxis, kiln::Slice{1, 3, 1}, 2},
         {{2, 1, 2}, {-96, 0, 32}, 4240}},
        {{{2, 3, 4}, {96, 32, 8}, 4096}, {0, 0, 0}, {{}, {}, 4096}},
        {{{2, 3, 4}, {96, 32, 8}, 4096},
         {kiln::newaxis, kiln::ellipsis},
         {{1, 2, 3, 4}, {0, 96, 32, 8}, 4096}},
        {{{2, 3, 4}, {96, 32, 8}, 4096},
         {kiln::Slice{-1, std::nullopt, 1}, kiln::Slice{-2, std::nullopt, -1},
          kiln::Slice{100, std::nullopt, -2}},
         {{1, 2, 2}, {96, -32, -16}, 4248}},
        {{{2, 3, 4}, {96, 32, 8}, 4096},
         {kiln::Slice{std::nullopt, std::nullopt, 1}, kiln::newaxis, kiln::ellipsis, kiln::newaxis,
          -3},
         {{2, 1, 3, 1}, {96, 0, 32, 0}, 4104}},
        {{{2, 3, 4}, {1, 2, 6}, 4096},
         {1, kiln::ellipsis, kiln::Slice{std::nullopt, std::nullopt, 2}},
         {{3, 2}, {2, 12}, 4097}},
        {{{2, 3, 4}, {1, 2, 6}, 4096},
         {kiln::Slice{std::nullopt, std::nullopt, 1}, 1},
         {{2, 4}, {1, 6}, 4098}},
        {{{2, 3, 4}, {1, 2, 6}, 4096},
         {kiln::ellipsis, -1, kiln::Slice{1, std::nullopt, 1}},
         {{2, 3}, {1, 6}, 4106}},
        {{{2, 3, 4}, {1, 2, 6}, 4096},
         {kiln::Slice{std::nullopt, std::nullopt, -1}, kiln::newaxis, kiln::Slice{1, 3, 1}, 2},
         {{2, 1, 2}, {-1, 0, 2}, 4111}},
        {{{2, 3, 4}, {1, 2, 6}, 4096}, {0, 0, 0}, {{}, {}, 4096}},
        {{{2, 3, 4}, {1, 2, 6}, 4096},
         {kiln::newaxis, kiln::ellipsis},
         {{1, 2, 3, 4}, {0, 1, 2, 6}, 4096}},
        {{{2, 3, 4}, {1, 2, 6}, 4096},
         {kiln::Slice{-1, std::nullopt, 1}, kiln::Slice{-2, std::nullopt, -1},
          kiln::Slice{100, std::nullopt, -2}},
         {{1, 2, 2}, {1, -2, -12}, 4117}},
        {{{2, 3, 4}, {1, 2, 6}, 4096},
         {kiln::Slice{std::nullopt, std::nullopt, 1}, kiln::newaxis, kiln::ellipsis, kiln::newaxis,
          -3},
         {{2, 1, 3, 1}, {1, 0, 2, 0}, 4102}},
        {{{3, 2, 4}, {8, -4, 24}, 4100},
         {1, kiln::ellipsis, kiln::Slice{std::nullopt, std::nullopt, 2}},
         {{2, 2}, {-4, 48}, 4108}},
        {{{3, 2, 4}, {8, -4, 24}, 4100},
         {kiln::Slice{std::nullopt, std::nullopt, 1}, 1},
         {{3, 4}, {8, 24}, 4096}},
        {{{3, 2, 4}, {8, -4, 24}, 4100},
         {kiln::ellipsis, -1, kiln::Slice{1, std::nullopt, 1}},
         {{3, 3}, {8, 24}, 4120}},
        {{{3, 2, 4}, {8, -4, 24}, 4100},
         {kiln::Slice{std::nullopt, std::nullopt, -1}, kiln::newaxis, kiln::Slice{1, 3, 1}, 2},
         {{3, 1, 1}, {-8, 0, -4}, 4160}},
        {{{3, 2, 4}, {8, -4, 24}, 4100}, {0, 0, 0}, {{}, {}, 4100}},
        {{{3, 2, 4}, {8, -4, 24}, 4100},
         {kiln::newaxis, kiln::ellipsis},
         {{1, 3, 2, 4}, {0, 8, -4, 24}, 4100}},
        {{{3, 2, 4}, {8, -4, 24}, 4100},
         {kiln::Slice{-1, std::nullopt, 1}, kiln::Slice{-2, std::nullopt, -1},
          kiln::Slice{100, std::nullopt, -2}},
         {{1, 1, 2}, {8, 4, -48}, 4188}},
        {{{3, 2, 4}, {8, -4, 24}, 4100},
         {kiln::Slice{std::nullopt, std::nullopt, 1}, kiln::newaxis, kiln::ellipsis, kiln::newaxis,
          -3},
         {{3, 1, 2, 1}, {8, 0, -4, 0}, 4124}},
        {{{}, {}, 4096}, {}, {{}, {}, 4096}},
        {{{}, {}, 4096}, {kiln::newaxis}, {{1}, {0}, 4096}},
        {{{}, {}, 4096}, {kiln::ellipsis}, {{}, {}, 4096}},
        {{{}, {}, 4096}, {kiln::newaxis, kiln::ellipsis, kiln::newaxis}, {{1, 1}, {0, 0}, 4096}},
    };
    for (std::size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE("slice case " + std::to_string(i) + ": " + describe(cases[i].input));
        EXPECT_EQ(describe(kiln::detail::slice(cases[i].input, cases[i].indices)),
                  describe(cases[i].expected));
    }
}

TEST(Layout, SliceAcceptsDesignatedSlices) {
    // From NumPy as above: a = base((4, 5), np.int32); a[:3, ::-1] and a[1:, 1::2].
    const Layout a{{4, 5}, {20, 4}, 4096};
    const std::vector<Index> first = {kiln::Slice{.stop = 3}, kiln::Slice{.step = -1}};
    EXPECT_EQ(describe(kiln::detail::slice(a, first)), describe(Layout{{3, 5}, {20, -4}, 4112}));
    const std::vector<Index> second = {kiln::Slice{1}, kiln::Slice{1, std::nullopt, 2}};
    EXPECT_EQ(describe(kiln::detail::slice(a, second)), describe(Layout{{3, 2}, {20, 8}, 4120}));
}

TEST(Layout, SliceWithHugeStepsTakesOneElement) {
    // slice(None, None, 2**63 - 1).indices(4) == (0, 4, ...) and slice(None, None, -2**63)
    // .indices(3) == (2, -1, ...): one element each. NumPy's stride product wraps around here;
    // kiln keeps the axis' stride, which a one-element axis never uses.
    const Layout a{{3, 4}, {32, 8}, 0};
    const std::vector<Index> forward = {kiln::Slice{}, kiln::Slice{.step = int64_max}};
    EXPECT_EQ(describe(kiln::detail::slice(a, forward)), describe(Layout{{3, 1}, {32, 8}, 0}));
    const std::vector<Index> backward = {kiln::Slice{.step = int64_min}};
    EXPECT_EQ(describe(kiln::detail::slice(a, backward)), describe(Layout{{1, 4}, {32, 8}, 64}));
}

TEST(Layout, SliceErrorsNameTheIndex) {
    using kiln::detail::slice;
    const Layout a{{3, 4}, {32, 8}, 0};
    expect_error<kiln::IndexError>([&] { (void)slice(a, std::vector<Index>{5}); },
                                   "kiln: slice: index 5 is out of bounds for axis 0 with size 3");
    expect_error<kiln::IndexError>(
        [&] {
            (void)slice(a, std::vector<Index>{kiln::newaxis, 0, -5});
        },
        "kiln: slice: index -5 is out of bounds for axis 1 with size 4");
    expect_error<kiln::IndexError>(
        [&] {
            (void)slice(a, std::vector<Index>{kiln::ellipsis, 4});
        },
        "kiln: slice: index 4 is out of bounds for axis 1 with size 4");
    expect_error<kiln::IndexError>(
        [] {
            (void)slice(Layout{{0}, {8}, 0}, std::vector<Index>{0});
        },
        "kiln: slice: index 0 is out of bounds for axis 0 with size 0");
    expect_error<kiln::IndexError>(
        [&] {
            (void)slice(a, std::vector<Index>{1, kiln::Slice{.step = 0}});
        },
        "kiln: slice: slice step cannot be zero");
    expect_error<kiln::IndexError>(
        [&] {
            (void)slice(a, std::vector<Index>{kiln::ellipsis, 0, kiln::ellipsis});
        },
        "kiln: slice: an index can only have a single ellipsis (...)");
    expect_error<kiln::IndexError>(
        [&] {
            (void)slice(a, std::vector<Index>{0, kiln::newaxis, kiln::Slice{}, 1});
        },
        "kiln: slice: too many indices for array: array is 2-dimensional, but 3 were indexed");
    expect_error<kiln::IndexError>(
        [] {
            (void)slice(Layout{}, std::vector<Index>{kiln::ellipsis, 0});
        },
        "kiln: slice: too many indices for array: array is 0-dimensional, but 1 were indexed");
}

TEST(Layout, SliceOfAnImpossibleLayoutThrowsInsteadOfOverflowing) {
    const Layout huge{{3}, {int64_max / 2 + 1}, 0};
    expect_error<kiln::Error>([&] { (void)kiln::detail::slice(huge, std::vector<Index>{2}); },
                              "kiln: slice: byte offsets overflow int64");
    expect_error<kiln::Error>(
        [&] { (void)kiln::detail::slice(huge, std::vector<Index>{kiln::Slice{.step = 2}}); },
        "kiln: slice: byte offsets overflow int64");
}

struct ReshapeCase {
    Layout input;
    std::size_t itemsize;
    Shape shape;
    std::optional<Layout> expected;
};

TEST(Layout, ReshapeViewsAndCopiesMatchNumPy) {
    const std::vector<ReshapeCase> cases = {
        {{{2, 3, 4}, {96, 32, 8}, 4096}, 8, {6, 4}, Layout{{6, 4}, {32, 8}, 4096}},
        {{{2, 3, 4}, {96, 32, 8}, 4096}, 8, {4, 6}, Layout{{4, 6}, {48, 8}, 4096}},
        {{{2, 3, 4}, {96, 32, 8}, 4096}, 8, {24}, Layout{{24}, {8}, 4096}},
        {{{2, 3, 4}, {96, 32, 8}, 4096}, 8, {2, 12}, Layout{{2, 12}, {96, 8}, 4096}},
        {{{2, 3, 4}, {96, 32, 8}, 4096}, 8, {-1}, Layout{{24}, {8}, 4096}},
        {{{2, 3, 4}, {96, 32, 8}, 4096}, 8, {3, -1, 2}, Layout{{3, 4, 2}, {64, 16, 8}, 4096}},
        {{{2, 3, 4}, {96, 32, 8}, 4096}, 8, {1, 24, 1}, Layout{{1, 24, 1}, {192, 8, 8}, 4096}},
        {{{2, 3, 4}, {96, 32, 8}, 4096},
         8,
         {2, 1, 3, 1, 4},
         Layout{{2, 1, 3, 1, 4}, {96, 96, 32, 32, 8}, 4096}},
        {{{2, 3, 4}, {96, 32, 8}, 4096}, 8, {4, 3, 2}, Layout{{4, 3, 2}, {48, 16, 8}, 4096}},
        {{{2, 3, 4}, {4, 8, 24}, 4096}, 4, {6, 4}, std::nullopt},
        {{{2, 3, 4}, {4, 8, 24}, 4096}, 4, {2, 12}, std::nullopt},
        {{{2, 3, 4}, {4, 8, 24}, 4096}, 4, {-1}, std::nullopt},
        {{{2, 3, 4}, {4, 8, 24}, 4096}, 4, {1, 2, 3, 4}, Layout{{1, 2, 3, 4}, {8, 4, 8, 24}, 4096}},
        {{{2, 3, 4}, {4, 8, 24}, 4096},
         4,
         {2, 3, 2, 2},
         Layout{{2, 3, 2, 2}, {4, 8, 48, 24}, 4096}},
        {{{2, 3, 4}, {4, 8, 24}, 4096}, 4, {6, -1, 1}, std::nullopt},
        {{{4, 3}, {48, 16}, 4096}, 8, {12}, Layout{{12}, {16}, 4096}},
        {{{4, 3}, {48, 16}, 4096}, 8, {2, 2, 3}, Layout{{2, 2, 3}, {96, 48, 16}, 4096}},
        {{{4, 3}, {48, 16}, 4096}, 8, {4, 3, 1}, Layout{{4, 3, 1}, {48, 16, 16}, 4096}},
        {{{4, 3}, {48, 16}, 4096}, 8, {3, 4}, Layout{{3, 4}, {64, 16}, 4096}},
        {{{4, 3}, {12, 2}, 4096}, 2, {12}, std::nullopt},
        {{{4, 3}, {12, 2}, 4096}, 2, {2, 2, 3}, Layout{{2, 2, 3}, {24, 12, 2}, 4096}},
        {{{4, 3}, {12, 2}, 4096}, 2, {1, 4, 1, 3}, Layout{{1, 4, 1, 3}, {48, 12, 6, 2}, 4096}},
        {{{4, 3}, {12, 2}, 4096}, 2, {3, 4}, std::nullopt},
        {{{3, 2, 4}, {4, 12, 1}, 4096}, 1, {3, 8}, std::nullopt},
        {{{3, 2, 4}, {4, 12, 1}, 4096}, 1, {6, 4}, std::nullopt},
        {{{3, 2, 4}, {4, 12, 1}, 4096}, 1, {3, 2, 2, 2}, Layout{{3, 2, 2, 2}, {4, 12, 2, 1}, 4096}},
        {{{3, 2, 4}, {4, 12, 1}, 4096},
         1,
         {3, 1, 2, 4},
         Layout{{3, 1, 2, 4}, {4, 24, 12, 1}, 4096}},
        {{{3, 4}, {-16, 4}, 4128}, 4, {12}, std::nullopt},
        {{{3, 4}, {-16, 4}, 4128}, 4, {3, 2, 2}, Layout{{3, 2, 2}, {-16, 8, 4}, 4128}},
        {{{3, 4}, {-16, 4}, 4128}, 4, {1, 3, 4}, Layout{{1, 3, 4}, {-48, -16, 4}, 4128}},
        {{{1, 3}, {40, 16}, 4096}, 8, {3}, Layout{{3}, {16}, 4096}},
        {{{1, 3}, {40, 16}, 4096}, 8, {3, 1}, Layout{{3, 1}, {16, 16}, 4096}},
        {{{1, 3}, {40, 16}, 4096}, 8, {1, 1, 3}, Layout{{1, 1, 3}, {48, 48, 16}, 4096}},
        {{{3, 4}, {0, 8}, 4096}, 8, {12}, std::nullopt},
        {{{3, 4}, {0, 8}, 4096}, 8, {3, 2, 2}, Layout{{3, 2, 2}, {0, 16, 8}, 4096}},
        {{{3, 4}, {0, 8}, 4096}, 8, {3, 4, 1}, Layout{{3, 4, 1}, {0, 8, 8}, 4096}},
        {{{0, 3}, {24, 8}, 4096}, 8, {3, 0}, Layout{{3, 0}, {8, 8}, 4096}},
        {{{0, 3}, {24, 8}, 4096}, 8, {0}, Layout{{0}, {8}, 4096}},
        {{{0, 3}, {24, 8}, 4096}, 8, {-1, 3}, Layout{{0, 3}, {24, 8}, 4096}},
        {{{0, 3}, {24, 8}, 4096}, 8, {0, 1, 5, 0}, Layout{{0, 1, 5, 0}, {40, 40, 8, 8}, 4096}},
        {{{0, 3}, {24, 8}, 4096}, 4, {3, 0}, Layout{{3, 0}, {4, 4}, 4096}},
        {{{0, 3}, {24, 8}, 4096}, 4, {0, 7}, Layout{{0, 7}, {28, 4}, 4096}},
        {{{}, {}, 4096}, 8, {1, 1}, Layout{{1, 1}, {8, 8}, 4096}},
        {{{}, {}, 4096}, 8, {1}, Layout{{1}, {8}, 4096}},
        {{{}, {}, 4096}, 8, {}, Layout{{}, {}, 4096}},
        {{{1, 1}, {2, 2}, 4096}, 2, {}, Layout{{}, {}, 4096}},
        {{{1, 1}, {2, 2}, 4096}, 2, {1}, Layout{{1}, {2}, 4096}},
        {{{3, 1, 3}, {48, 24, -8}, 4112}, 8, {9}, std::nullopt},
        {{{3, 1, 3}, {48, 24, -8}, 4112}, 8, {3, 3}, Layout{{3, 3}, {48, -8}, 4112}},
        {{{3, 1, 3}, {48, 24, -8}, 4112},
         8,
         {3, 1, 3, 1},
         Layout{{3, 1, 3, 1}, {48, -24, -8, -8}, 4112}},
        {{{3, 1, 3}, {48, 24, -8}, 4112}, 8, {1, 3, 3}, Layout{{1, 3, 3}, {144, 48, -8}, 4112}},
    };
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const ReshapeCase& c = cases[i];
        SCOPED_TRACE("reshape case " + std::to_string(i) + ": " + describe(c.input) + " to " +
                     kiln::to_string(c.shape));
        EXPECT_EQ(describe(kiln::detail::reshape_view(c.input, c.shape, c.itemsize)),
                  describe(c.expected));
    }
}

TEST(Layout, ReshapeErrorsNameTheShapes) {
    using kiln::detail::reshape_view;
    const Layout a{{2, 3}, {24, 8}, 0};
    expect_error<kiln::ShapeError>(
        [&] {
            (void)reshape_view(a, {4, 2}, 8);
        },
        "kiln: reshape: cannot reshape array of size 6 into shape "
        "(4, 2)");
    expect_error<kiln::ShapeError>(
        [&] {
            (void)reshape_view(a, {4, -1}, 8);
        },
        "kiln: reshape: cannot reshape array of size 6 into shape "
        "(4, -1)");
    expect_error<kiln::ShapeError>(
        [&] {
            (void)reshape_view(a, {std::int64_t{1} << 62, 4, -1}, 8);
        },
        "kiln: reshape: cannot reshape array of size 6 into shape (4611686018427387904, 4, -1)");
    expect_error<kiln::ShapeError>(
        [&] {
            (void)reshape_view(a, {-1, -1}, 8);
        },
        "kiln: reshape: can only specify one unknown dimension (-1) in "
        "shape (-1, -1)");
    expect_error<kiln::ShapeError>(
        [&] {
            (void)reshape_view(a, {-2, -3}, 8);
        },
        "kiln: reshape: negative dimensions are not allowed in shape "
        "(-2, -3)");
    const Layout empty{{2, 0}, {8, 8}, 0};
    expect_error<kiln::ShapeError>(
        [&] {
            (void)reshape_view(empty, {0, -1}, 8);
        },
        "kiln: reshape: cannot reshape array of size 0 into shape "
        "(0, -1)");
    expect_error<kiln::ShapeError>(
        [&] {
            (void)reshape_view(empty, {0, std::int64_t{1} << 62, 4}, 8);
        },
        "kiln: reshape: an array of shape (0, 4611686018427387904, 4) and itemsize 8 is too "
        "large: its size in bytes overflows int64");
    // Two elements 2**62 bytes apart: the extent-1 axis in front would step 2**63 bytes.
    const Layout wide{{2}, {std::int64_t{1} << 62}, 0};
    expect_error<kiln::Error>(
        [&] {
            (void)reshape_view(wide, {1, 2}, 1);
        },
        "kiln: reshape: byte offsets overflow int64");
}

struct TransposeCase {
    Layout input;
    std::vector<std::int64_t> axes;
    Layout expected;
};

TEST(Layout, TransposeMatchesNumPy) {
    const std::vector<TransposeCase> cases = {
        {{{2, 3, 4}, {96, 32, 8}, 4096}, {}, {{4, 3, 2}, {8, 32, 96}, 4096}},
        {{{2, 3, 4}, {96, 32, 8}, 4096}, {2, 0, 1}, {{4, 2, 3}, {8, 96, 32}, 4096}},
        {{{2, 3, 4}, {96, 32, 8}, 4096}, {-1, 0, -2}, {{4, 2, 3}, {8, 96, 32}, 4096}},
        {{{2, 3, 4}, {96, 32, 8}, 4096}, {0, 1, 2}, {{2, 3, 4}, {96, 32, 8}, 4096}},
        {{{3, 4}, {4, 12}, 4096}, {}, {{4, 3}, {12, 4}, 4096}},
        {{{3, 4}, {4, 12}, 4096}, {1, 0}, {{4, 3}, {12, 4}, 4096}},
        {{{3, 2}, {-24, 6}, 4146}, {}, {{2, 3}, {6, -24}, 4146}},
        {{{}, {}, 4096}, {}, {{}, {}, 4096}},
        {{{3}, {-3}, 4102}, {0}, {{3}, {-3}, 4102}},
        {{{2, 1, 3, 2}, {48, 48, -16, 8}, 4128},
         {3, 1, 0, 2},
         {{2, 1, 2, 3}, {8, 48, 48, -16}, 4128}},
    };
    for (const TransposeCase& c : cases) {
        SCOPED_TRACE(describe(c.input) + " axes " + kiln::to_string(c.axes));
        EXPECT_EQ(describe(kiln::detail::transpose(c.input, c.axes)), describe(c.expected));
    }
}

TEST(Layout, TransposeErrorsNameTheAxes) {
    const Layout a{{2, 3}, {24, 8}, 0};
    auto transpose = [&](const std::vector<std::int64_t>& axes) {
        return [&a, axes] { (void)kiln::detail::transpose(a, axes); };
    };
    expect_error<kiln::Error>(transpose({0, 1, 2}),
                              "kiln: transpose: axes (0, 1, 2) don't match an array of dimension "
                              "2: expected 2 axes, got 3");
    expect_error<kiln::Error>(transpose({1}),
                              "kiln: transpose: axes (1,) don't match an array of dimension 2: "
                              "expected 2 axes, got 1");
    expect_error<kiln::Error>(transpose({1, -1}),
                              "kiln: transpose: repeated axis -1 in axes (1, -1)");
    expect_error<kiln::IndexError>(
        transpose({0, 2}), "kiln: transpose: axis 2 is out of bounds for array of dimension 2");
}

struct SqueezeCase {
    Layout input;
    std::optional<std::vector<std::int64_t>> axes;
    Layout expected;
};

TEST(Layout, SqueezeMatchesNumPy) {
    const std::vector<SqueezeCase> cases = {
        {{{1, 3, 1, 4}, {48, -16, 16, 4}, 4128}, std::nullopt, {{3, 4}, {-16, 4}, 4128}},
        {{{1, 3, 1, 4}, {48, -16, 16, 4}, 4128},
         std::vector<std::int64_t>{0},
         {{3, 1, 4}, {-16, 16, 4}, 4128}},
        {{{1, 3, 1, 4}, {48, -16, 16, 4}, 4128},
         std::vector<std::int64_t>{-2},
         {{1, 3, 4}, {48, -16, 4}, 4128}},
        {{{1, 3, 1, 4}, {48, -16, 16, 4}, 4128},
         std::vector<std::int64_t>{0, 2},
         {{3, 4}, {-16, 4}, 4128}},
        {{{1, 3, 1, 4}, {48, -16, 16, 4}, 4128},
         std::vector<std::int64_t>{},
         {{1, 3, 1, 4}, {48, -16, 16, 4}, 4128}},
        {{{1, 3, 1, 4}, {48, -16, 16, 4}, 4128},
         std::vector<std::int64_t>{2, -4},
         {{3, 4}, {-16, 4}, 4128}},
        {{{1}, {8}, 4096}, std::nullopt, {{}, {}, 4096}},
        {{{}, {}, 4096}, std::nullopt, {{}, {}, 4096}},
        {{{2, 3}, {24, 8}, 4096}, std::nullopt, {{2, 3}, {24, 8}, 4096}},
        {{{1, 1, 1}, {2, 2, -2}, 4096}, std::vector<std::int64_t>{1}, {{1, 1}, {2, -2}, 4096}},
    };
    for (std::size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE("squeeze case " + std::to_string(i) + ": " + describe(cases[i].input));
        EXPECT_EQ(describe(kiln::detail::squeeze(cases[i].input, cases[i].axes)),
                  describe(cases[i].expected));
    }
}

TEST(Layout, SqueezeErrorsNameTheAxis) {
    const Layout a{{1, 3}, {24, 8}, 0};
    auto squeeze = [&](const std::vector<std::int64_t>& axes) {
        return [&a, axes] { (void)kiln::detail::squeeze(a, axes); };
    };
    expect_error<kiln::ShapeError>(
        squeeze({1}),
        "kiln: squeeze: cannot squeeze axis 1 of an array of shape (1, 3): its size "
        "is 3, not 1");
    expect_error<kiln::IndexError>(
        squeeze({2}), "kiln: squeeze: axis 2 is out of bounds for array of dimension 2");
    expect_error<kiln::Error>(squeeze({0, -2}), "kiln: squeeze: repeated axis -2 in axes (0, -2)");
}

struct ExpandCase {
    Layout input;
    std::size_t itemsize;
    std::vector<std::int64_t> axes;
    Layout expected;
};

TEST(Layout, ExpandDimsMatchesNumPy) {
    const std::vector<ExpandCase> cases = {
        {{{3, 2}, {32, 16}, 4104}, 8, {0}, {{1, 3, 2}, {96, 32, 16}, 4104}},
        {{{3, 2}, {32, 16}, 4104}, 8, {-1}, {{3, 2, 1}, {32, 16, 16}, 4104}},
        {{{3, 2}, {32, 16}, 4104}, 8, {1}, {{3, 1, 2}, {32, 32, 16}, 4104}},
        {{{3, 2}, {32, 16}, 4104}, 8, {0, 3}, {{1, 3, 2, 1}, {96, 32, 16, 16}, 4104}},
        {{{3, 2}, {32, 16}, 4104}, 8, {-1, -2}, {{3, 2, 1, 1}, {32, 16, 16, 16}, 4104}},
        {{{3, 2}, {32, 16}, 4104}, 8, {0, 2}, {{1, 3, 1, 2}, {96, 32, 32, 16}, 4104}},
        {{{3, 2}, {32, 16}, 4104}, 8, {3, 0, -3}, {{1, 3, 1, 1, 2}, {96, 32, 32, 32, 16}, 4104}},
        {{{3, 2}, {32, 16}, 4104}, 8, {}, {{3, 2}, {32, 16}, 4104}},
        {{{}, {}, 4096}, 4, {0}, {{1}, {4}, 4096}},
        {{{}, {}, 4096}, 4, {0, 1}, {{1, 1}, {4, 4}, 4096}},
        {{{2, 1, 3}, {6, 6, -2}, 4100}, 2, {-1}, {{2, 1, 3, 1}, {6, -6, -2, -2}, 4100}},
        {{{0, 3}, {24, 8}, 4096}, 4, {0}, {{1, 0, 3}, {12, 12, 4}, 4096}},
    };
    for (const ExpandCase& c : cases) {
        SCOPED_TRACE(describe(c.input) + " axes " + kiln::to_string(c.axes));
        EXPECT_EQ(describe(kiln::detail::expand_dims(c.input, c.axes, c.itemsize)),
                  describe(c.expected));
    }
}

TEST(Layout, ExpandDimsErrorsNameTheAxis) {
    const Layout a{{3, 4}, {32, 8}, 0};
    auto expand = [&](const std::vector<std::int64_t>& axes) {
        return [&a, axes] { (void)kiln::detail::expand_dims(a, axes, 8); };
    };
    expect_error<kiln::IndexError>(
        expand({3}), "kiln: expand_dims: axis 3 is out of bounds for array of dimension 3");
    expect_error<kiln::IndexError>(
        expand({0, -5}), "kiln: expand_dims: axis -5 is out of bounds for array of dimension 4");
    expect_error<kiln::Error>(expand({1, -3}),
                              "kiln: expand_dims: repeated axis -3 in axes (1, -3)");
}

struct ExtentCase {
    Layout layout;
    std::size_t itemsize;
    std::int64_t low;
    std::int64_t high;
};

TEST(Layout, ByteExtentMatchesNumPysByteBounds) {
    const std::vector<ExtentCase> cases = {
        {{{3, 4}, {32, 8}, 4096}, 8, 4096, 4192},
        {{{3, 4}, {4, 12}, 4096}, 4, 4096, 4144},
        {{{3, 4}, {-36, 4}, 4188}, 2, 4116, 4202},
        {{{2, 3, 2}, {96, -32, 16}, 4160}, 8, 4096, 4280},
        {{{}, {}, 4096}, 8, 4096, 4104},
        {{{5}, {-1}, 4100}, 1, 4096, 4101},
        {{{3, 4}, {0, 8}, 4096}, 8, 4096, 4128},
        {{{2, 2, 3}, {-18, 1, 2}, 4114}, 1, 4096, 4120},
    };
    for (const ExtentCase& c : cases) {
        SCOPED_TRACE(describe(c.layout));
        const auto [low, high] = kiln::detail::byte_extent(c.layout, c.itemsize);
        EXPECT_EQ(low, c.low);
        EXPECT_EQ(high, c.high);
    }
}

TEST(Layout, ByteExtentOfAnEmptyArrayIsEmpty) {
    using Extent = std::pair<std::int64_t, std::int64_t>;
    EXPECT_EQ(kiln::detail::byte_extent(Layout{{0, 3}, {24, 8}, 4096}, 8), (Extent{0, 0}));
    EXPECT_EQ(kiln::detail::byte_extent(Layout{{3, 0}, {-8, 8}, 16}, 8), (Extent{0, 0}));
}

TEST(Layout, ByteExtentOfAnImpossibleLayoutThrowsInsteadOfOverflowing) {
    const Layout huge{{3}, {int64_max / 2 + 1}, 0};
    expect_error<kiln::Error>([&] { (void)kiln::detail::byte_extent(huge, 1); },
                              "kiln: byte_extent: byte offsets overflow int64");
}

}  // namespace
