// Calls whose output overlaps an input give the answer of separate memory, as NumPy guarantees
// (a kernel reads and writes in no set order, so kiln copies such inputs first), and
// kiln::may_share_memory's bounds check. Cases rewritten from NumPy's
// numpy/_core/tests/test_mem_overlap.py; each expected value comes from a host model of the
// views over the original values.
#include "tests/support/backend_under_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace {

using kiln::ndarray;
using kiln::Slice;

// A 1-d view: `count` elements from `start`, `step` apart.
struct View {
    std::int64_t start = 0;
    std::int64_t step = 1;
    std::int64_t count = 0;

    [[nodiscard]] std::int64_t at(std::int64_t j) const { return start + j * step; }
    [[nodiscard]] ndarray of(const ndarray& v) const {
        const std::int64_t stop = start + count * step;
        return v[{Slice{start, stop < 0 ? std::nullopt : std::optional(stop), step}}];
    }
};

// test_unary_ufunc_1d_manual's index expressions, n elements each, k = 10: [:n], [k:k+n],
// [n-1::-1], [k+n-1:k-1:-1], and the same with step 2.
std::vector<View> unary_views(std::int64_t n, std::int64_t k) {
    return {{0, 1, n}, {k, 1, n}, {n - 1, -1, n},     {k + n - 1, -1, n},
            {0, 2, n}, {k, 2, n}, {2 * n - 1, -2, n}, {k + 2 * n - 1, -2, n}};
}

// test_binary_ufunc_1d_manual's: [:p*n:p], [k:k+p*n:p], [p*n-1::-p], [k+p*n-1:k-1:-p], p = 1, 2.
std::vector<View> binary_views(std::int64_t n, std::int64_t k) {
    std::vector<View> views;
    for (const std::int64_t p : {1, 2}) {
        views.push_back({0, p, n});
        views.push_back({k, p, n});
        views.push_back({p * n - 1, -p, n});
        views.push_back({k + p * n - 1, -p, n});
    }
    return views;
}

template <class T>
std::vector<T> counting(std::int64_t size, T first) {
    std::vector<T> values(static_cast<std::size_t>(size));
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = static_cast<T>(first + static_cast<T>(i));
    }
    return values;
}

// NumPy test_mem_overlap.py, test_may_share_memory_manual, test_shares_memory_api and
// test_non_ndarray_inputs: the default check compares the bytes' bounds, so interleaved views
// may share memory while separate allocations and empty views never do.
TEST(MemoryOverlap, MayShareMemoryComparesBounds) {
    KILN_REQUIRE_DEVICE();
    const ndarray x = kiln::zeros({4, 5, 6}, kiln::int8);
    const Slice all{};
    EXPECT_TRUE(kiln::may_share_memory(x[{all, 0, all}], x[{all, 1, all}]));
    const ndarray reversed = x[{Slice{.step = -1}, all, Slice{.step = -1}}];
    EXPECT_TRUE(kiln::may_share_memory(reversed[{all, 0, all}], reversed[{all, 1, all}]));
    EXPECT_TRUE(kiln::may_share_memory(x, x));
    EXPECT_FALSE(kiln::may_share_memory(x, x.copy()));
    EXPECT_FALSE(kiln::may_share_memory(x[{Slice{2, 2}}], x)) << "no elements, no memory";

    const ndarray v = kiln::arange(5);
    EXPECT_TRUE(
        kiln::may_share_memory(v[{Slice{0, std::nullopt, 2}}], v[{Slice{1, std::nullopt, 2}}]))
        << "within each other's bounds, though no element is common";
    EXPECT_TRUE(
        kiln::may_share_memory(v[{Slice{1, std::nullopt, 3}}], v[{Slice{0, std::nullopt, 2}}]));
    EXPECT_FALSE(kiln::may_share_memory(v[{Slice{.stop = 2}}], v[{Slice{.start = 2}}]))
        << "int64 elements 0-1 and 2-4 touch bytes 0-15 and 16-39";
    EXPECT_TRUE(kiln::may_share_memory(v[{Slice{.stop = 3}}], v[{Slice{.start = 2}}]));

    const ndarray unit = kiln::zeros({1}, kiln::int8);
    EXPECT_TRUE(kiln::may_share_memory(unit, unit));
    EXPECT_FALSE(kiln::may_share_memory(unit, unit.copy()));
}

// NumPy test_mem_overlap.py, TestUFunc.test_unary_ufunc_1d_manual (negative for its invert and
// reciprocal): every pair of the views of one array, and the scalar cases x[:1], x[-1:] and
// their 0-d forms, give what they give on separate memory.
TEST(MemoryOverlap, UnaryUfuncOnOverlappingViews) {
    KILN_REQUIRE_DEVICE();
    constexpr std::int64_t n = 1000;
    constexpr std::int64_t k = 10;
    const std::vector<std::int32_t> original = counting<std::int32_t>(2 * n + k, 1);
    for (const View& xi : unary_views(n, k)) {
        for (const View& yi : unary_views(n, k)) {
            // The input as a view of v, and which of v's elements each y element reads. kiln's
            // out must have the inputs' broadcast shape, so the scalar cases are broadcast to n.
            const auto spread = [&](const ndarray& one) { return kiln::broadcast_to(one, {n}); };
            const std::vector<std::pair<std::function<ndarray(const ndarray&)>, View>> inputs = {
                {[&](const ndarray& x) { return x; }, xi},
                {[&](const ndarray& x) { return spread(x[{Slice{.stop = 1}}]); }, {xi.start, 0, n}},
                {[&](const ndarray& x) { return spread(x[{Slice{.start = -1}}]); },
                 {xi.at(n - 1), 0, n}},
                {[&](const ndarray& x) { return spread(x[{Slice{.stop = 1}}].reshape({})); },
                 {xi.start, 0, n}},
                {[&](const ndarray& x) { return spread(x[{Slice{.start = -1}}].reshape({})); },
                 {xi.at(n - 1), 0, n}},
            };
            for (std::size_t c = 0; c < inputs.size(); ++c) {
                const ndarray v = kiln::array(original);
                (void)kiln::negative(inputs[c].first(xi.of(v)), {.out = yi.of(v)});
                std::vector<std::int32_t> expected = original;
                for (std::int64_t j = 0; j < n; ++j) {
                    expected[static_cast<std::size_t>(yi.at(j))] =
                        -original[static_cast<std::size_t>(inputs[c].second.at(j))];
                }
                ASSERT_EQ(v.get<std::int32_t>(), expected)
                    << "x from " << xi.start << " step " << xi.step << ", y from " << yi.start
                    << " step " << yi.step << ", input case " << c;
            }
        }
    }
}

// NumPy test_mem_overlap.py, TestUFunc.test_binary_ufunc_1d_manual (float64, n = 100 for CI):
// add(x, y, out=z) for every triple of the views of one array.
TEST(MemoryOverlap, BinaryUfuncOnOverlappingViews) {
    KILN_REQUIRE_DEVICE();
    constexpr std::int64_t n = 100;
    constexpr std::int64_t k = 10;
    const std::vector<double> original = counting<double>(6 * n, 0.0);
    const std::vector<View> views = binary_views(n, k);
    for (const View& x : views) {
        for (const View& y : views) {
            for (const View& z : views) {
                const ndarray v = kiln::array(original);
                (void)kiln::add(x.of(v), y.of(v), {.out = z.of(v)});
                std::vector<double> expected = original;
                for (std::int64_t j = 0; j < n; ++j) {
                    expected[static_cast<std::size_t>(z.at(j))] =
                        original[static_cast<std::size_t>(x.at(j))] +
                        original[static_cast<std::size_t>(y.at(j))];
                }
                ASSERT_EQ(v.get<double>(), expected)
                    << "x " << x.start << ":" << x.step << ", y " << y.start << ":" << y.step
                    << ", z " << z.start << ":" << z.step;
            }
        }
    }
}

// NumPy test_mem_overlap.py, TestUFunc.test_inplace_op_simple_manual: x += x.T on 200 x 200.
TEST(MemoryOverlap, InPlaceAddOfTheTranspose) {
    KILN_REQUIRE_DEVICE();
    constexpr std::int64_t n = 200;
    std::vector<double> original(static_cast<std::size_t>(n * n));
    for (std::size_t i = 0; i < original.size(); ++i) {
        original[i] = static_cast<double>((i * 7919) % 1009) / 8.0;
    }
    ndarray x = kiln::array(original, kiln::Shape{n, n});
    x += x.transpose();
    std::vector<double> expected(original.size());
    for (std::int64_t i = 0; i < n; ++i) {
        for (std::int64_t j = 0; j < n; ++j) {
            expected[static_cast<std::size_t>(i * n + j)] =
                original[static_cast<std::size_t>(i * n + j)] +
                original[static_cast<std::size_t>(j * n + i)];
        }
    }
    EXPECT_EQ(x.get<double>(), expected);
}

// The operators through views: a += a[::-1] and a[1:] += a[:-1] read the values before the call.
TEST(MemoryOverlap, InPlaceOperatorsOnReversedAndShiftedViews) {
    KILN_REQUIRE_DEVICE();
    const std::vector<std::int64_t> original = counting<std::int64_t>(9, 1);
    ndarray a = kiln::array(original);
    a += a[{Slice{.step = -1}}];
    EXPECT_EQ(a.get<std::int64_t>(),
              (std::vector<std::int64_t>{10, 10, 10, 10, 10, 10, 10, 10, 10}));

    const ndarray b = kiln::array(original);
    ndarray tail = b[{Slice{.start = 1}}];
    tail += b[{Slice{.stop = -1}}];
    EXPECT_EQ(b.get<std::int64_t>(), (std::vector<std::int64_t>{1, 3, 5, 7, 9, 11, 13, 15, 17}));

    const ndarray c = kiln::array(original);
    ndarray evens = c[{Slice{.step = 2}}];
    evens *= c[{Slice{.start = 4}}];  // c[::2] *= c[4:], whose first element is c[::2][2]
    EXPECT_EQ(c.get<std::int64_t>(), (std::vector<std::int64_t>{5, 2, 18, 4, 35, 6, 56, 8, 81}));
}

// An ElementwiseKernel output that is a shifted view of its input, where and clip with out on
// a reversed view of their input, and an input identical to its output, which stays in place.
TEST(MemoryOverlap, KernelWhereAndClipOutputs) {
    KILN_REQUIRE_DEVICE();
    const std::vector<std::int64_t> original = counting<std::int64_t>(8, 1);
    const kiln::ElementwiseKernel twice("T x", "T y", "y = x * 2", "overlap_twice");

    const ndarray v = kiln::array(original);
    (void)twice({v[{Slice{.stop = -1}}], v[{Slice{.start = 1}}]});
    EXPECT_EQ(v.get<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 4, 6, 8, 10, 12, 14}));

    const ndarray same = kiln::array(original);
    (void)twice({same, same});
    EXPECT_EQ(same.get<std::int64_t>(), (std::vector<std::int64_t>{2, 4, 6, 8, 10, 12, 14, 16}));

    const ndarray w = kiln::array(original);
    const ndarray mask =
        kiln::array(std::vector<bool>{false, true, false, true, true, false, true, true});
    (void)kiln::where(mask, w[{Slice{.step = -1}}], w, {.out = w});
    EXPECT_EQ(w.get<std::int64_t>(), (std::vector<std::int64_t>{1, 7, 3, 5, 4, 6, 2, 1}));

    const ndarray c = kiln::array(original);
    (void)kiln::clip(c[{Slice{.step = -1}}], 3, 6, {.out = c});
    EXPECT_EQ(c.get<std::int64_t>(), (std::vector<std::int64_t>{6, 6, 6, 5, 4, 3, 3, 3}));
}

// A reduction whose out lies in rows it has still to read: sum over rows of v[:m*n] reshaped
// (m, n) into v[n:n+m], inside row 1.
TEST(MemoryOverlap, ReductionOutInsideItsInput) {
    KILN_REQUIRE_DEVICE();
    constexpr std::int64_t m = 6;
    constexpr std::int64_t n = 8;
    std::vector<double> original(static_cast<std::size_t>(m * n));
    for (std::size_t i = 0; i < original.size(); ++i) {
        original[i] = static_cast<double>((i * 5) % 11);
    }
    const ndarray v = kiln::array(original);
    (void)kiln::sum(v.reshape({m, n}), {.axis = 1, .out = v[{Slice{n, n + m}}]});
    std::vector<double> expected = original;
    for (std::int64_t row = 0; row < m; ++row) {
        double total = 0;
        for (std::int64_t j = 0; j < n; ++j) {
            total += original[static_cast<std::size_t>(row * n + j)];
        }
        expected[static_cast<std::size_t>(n + row)] = total;
    }
    EXPECT_EQ(v.get<double>(), expected);
}

// NumPy test_mem_overlap.py, test_overlapping_assignments: arr[dst] = arr[src] on a 10 x 10
// array for every pair of same-size index expressions per axis (an integer, or 2 or 3 elements
// from the middle with steps of +-1 and +-2), through copyto.
TEST(MemoryOverlap, OverlappingCopyto) {
    KILN_REQUIRE_DEVICE();
    constexpr std::int64_t size = 10;
    struct AxisIndex {
        bool integer = false;
        View view;
    };
    std::vector<std::pair<AxisIndex, AxisIndex>> pairs;  // (src, dst) along one axis
    pairs.push_back({{true, {size / 2, 0, 1}}, {true, {size / 2, 0, 1}}});
    for (const std::int64_t count : {2, 3}) {
        std::vector<AxisIndex> group;
        for (const std::int64_t step : {1, 2}) {
            for (const std::int64_t sign : {-1, 1}) {
                // Python's floor division, as in the NumPy test's start.
                const std::int64_t half = count * step * sign;
                const std::int64_t floor_half = half >= 0 ? half / 2 : -((-half + 1) / 2);
                group.push_back({false, {size / 2 - floor_half, step * sign, count}});
            }
        }
        for (const AxisIndex& src : group) {
            for (const AxisIndex& dst : group) {
                pairs.emplace_back(src, dst);
            }
        }
    }
    const auto index = [](const AxisIndex& axis) -> kiln::Index {
        if (axis.integer) {
            return axis.view.start;
        }
        const std::int64_t stop = axis.view.start + axis.view.count * axis.view.step;
        return Slice{axis.view.start, stop < 0 ? std::nullopt : std::optional(stop),
                     axis.view.step};
    };
    const std::vector<std::int64_t> original = counting<std::int64_t>(size * size, 0);
    for (const auto& [src0, dst0] : pairs) {
        for (const auto& [src1, dst1] : pairs) {
            const ndarray arr = kiln::array(original, kiln::Shape{size, size});
            const std::vector<kiln::Index> src{index(src0), index(src1)};
            const std::vector<kiln::Index> dst{index(dst0), index(dst1)};
            kiln::copyto(arr.slice(dst), arr.slice(src));
            std::vector<std::int64_t> expected = original;
            for (std::int64_t i = 0; i < src0.view.count; ++i) {
                for (std::int64_t j = 0; j < src1.view.count; ++j) {
                    expected[static_cast<std::size_t>(dst0.view.at(i) * size + dst1.view.at(j))] =
                        original[static_cast<std::size_t>(src0.view.at(i) * size +
                                                          src1.view.at(j))];
                }
            }
            ASSERT_EQ(arr.get<std::int64_t>(), expected)
                << "src " << src0.view.start << ":" << src0.view.step << ", " << src1.view.start
                << ":" << src1.view.step << "; dst " << dst0.view.start << ":" << dst0.view.step
                << ", " << dst1.view.start << ":" << dst1.view.step;
        }
    }
}

}  // namespace
