// Repeated calls of one kernel object: a call with the layout of an earlier one replays what that
// call recorded (the host fast path). Each repeat must see its own data, scalars, outputs and
// stream, and calls of other layouts must not be mistaken for it.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/test_kernels.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

using kiln::ndarray;

std::vector<double> iota(std::size_t n, double scale) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = scale * static_cast<double>(i);
    }
    return v;
}

TEST(RepeatedCalls, ElementwiseSeesEachCallsDataAndScalar) {
    KILN_REQUIRE_DEVICE();
    const kiln::ElementwiseKernel scale("T x, T a", "T y", "y = x * a", "repeat_scale");
    for (int round = 1; round <= 4; ++round) {
        const auto host = iota(1000, round);
        const ndarray x = kiln::array(host);
        const auto y = scale({x, static_cast<double>(round + 1)}).get<double>();
        for (std::size_t i = 0; i < host.size(); ++i) {
            ASSERT_EQ(y[i], host[i] * (round + 1)) << "round " << round << " element " << i;
        }
    }
}

TEST(RepeatedCalls, ElementwiseWithGivenOutputsWritesEachOne) {
    KILN_REQUIRE_DEVICE();
    const kiln::ElementwiseKernel add("T x, T y", "T z", "z = x + y", "repeat_add_out");
    const ndarray x = kiln::array(iota(300, 1.0));
    const ndarray y = kiln::array(iota(300, 2.0));
    std::vector<ndarray> outs;
    for (int round = 0; round < 3; ++round) {
        outs.push_back(kiln::zeros({300}));
        const std::vector<kiln::Argument> args{x, y, outs.back()};
        (void)add.outputs(args);
    }
    for (const ndarray& out : outs) {
        const auto z = out.get<double>();
        for (std::size_t i = 0; i < z.size(); ++i) {
            ASSERT_EQ(z[i], 3.0 * static_cast<double>(i));
        }
    }
}

// Alternating layouts: contiguous, a strided view, a transposed 2-d array and another dtype.
TEST(RepeatedCalls, ElementwiseTellsLayoutsApart) {
    KILN_REQUIRE_DEVICE();
    const kiln::ElementwiseKernel twice("T x", "T y", "y = x + x", "repeat_twice");
    const ndarray flat = kiln::arange(0.0, 64.0, 1.0);
    const ndarray strided = flat[{kiln::Slice{.step = 2}}];
    const ndarray transposed = flat.reshape({8, 8}).transpose();
    const ndarray single = kiln::arange(0.0, 64.0, 1.0, kiln::float32);
    for (int round = 0; round < 3; ++round) {
        const auto a = twice({flat}).get<double>();
        const auto b = twice({strided}).get<double>();
        const auto c = twice({transposed}).get<double>();
        const auto d = twice({single}).get<float>();
        ASSERT_EQ(a.size(), 64U);
        ASSERT_EQ(b.size(), 32U);
        ASSERT_EQ(c.size(), 64U);
        ASSERT_EQ(d.size(), 64U);
        for (std::size_t i = 0; i < 64; ++i) {
            ASSERT_EQ(a[i], 2.0 * static_cast<double>(i));
            ASSERT_EQ(d[i], 2.0F * static_cast<float>(i));
            // transposed[r][c] = flat[c * 8 + r]
            const std::size_t row = i / 8;
            const std::size_t column = i % 8;
            ASSERT_EQ(c[i], 2.0 * static_cast<double>((column * 8) + row));
        }
        for (std::size_t i = 0; i < 32; ++i) {
            ASSERT_EQ(b[i], 4.0 * static_cast<double>(i));
        }
    }
}

// The same array objects through two kernels by turns, then through views of them: a call is
// remembered per kernel and per geometry (call_memo.hpp), never taken for another's.
TEST(RepeatedCalls, SameArraysThroughTwoKernelsAndTheirViews) {
    KILN_REQUIRE_DEVICE();
    const kiln::ElementwiseKernel add("T x, T y", "T z", "z = x + y", "repeat_memo_add");
    const kiln::ElementwiseKernel subtract("T x, T y", "T z", "z = x - y", "repeat_memo_sub");
    const ndarray x = kiln::array(iota(200, 3.0));
    const ndarray y = kiln::array(iota(200, 1.0));
    const ndarray x_rows = x.reshape({2, 100});
    const ndarray y_reversed = y[{kiln::Slice{.step = -1}}];
    for (int round = 0; round < 3; ++round) {
        const auto sum = add({x, y}).get<double>();
        const auto difference = subtract({x, y}).get<double>();
        const ndarray rows = add({x_rows, y.reshape({2, 100})});
        const auto reversed = add({x, y_reversed}).get<double>();
        ASSERT_EQ(rows.shape(), (kiln::Shape{2, 100}));
        const auto row_values = rows.get<double>();
        for (std::size_t i = 0; i < 200; ++i) {
            const auto at = static_cast<double>(i);
            ASSERT_EQ(sum[i], 4.0 * at) << "round " << round << " element " << i;
            ASSERT_EQ(difference[i], 2.0 * at) << "round " << round << " element " << i;
            ASSERT_EQ(row_values[i], 4.0 * at) << "round " << round << " element " << i;
            ASSERT_EQ(reversed[i], (3.0 * at) + (199.0 - at)) << "round " << round;
        }
    }
}

// Eager ufuncs of arrays alone are remembered by ufunc and by the arrays' identity
// (call_memo.hpp): the same arrays through several ufuncs by turns, with the exact integer
// comparison among them, and a scope that turns lazy fusion on between rounds.
TEST(RepeatedCalls, EagerUfuncsOnTheSameArraysStayApart) {
    KILN_REQUIRE_DEVICE();
    const ndarray x = kiln::array(iota(100, 3.0));
    const ndarray y = kiln::array(iota(100, 1.0));
    // 2**60 and 2**60 + 1 meet as one float64; int64 against uint64 compares them exactly.
    const ndarray low = kiln::array(std::vector<std::int64_t>{std::int64_t{1} << 60});
    const ndarray high = kiln::array(std::vector<std::uint64_t>{(std::uint64_t{1} << 60) + 1});
    for (int round = 0; round < 4; ++round) {
        const kiln::LazyFusionScope lazy(round == 2);
        const auto sum = kiln::add(x, y).get<double>();
        const auto difference = kiln::subtract(x, y).get<double>();
        const ndarray greater = kiln::greater(x, y);
        const ndarray exact = kiln::less(low, high);
        ASSERT_EQ(greater.dtype(), kiln::bool_);
        const auto greater_values = greater.get<bool>();
        ASSERT_TRUE(exact.get<bool>().at(0)) << "round " << round;
        for (std::size_t i = 0; i < 100; ++i) {
            const auto at = static_cast<double>(i);
            ASSERT_EQ(sum[i], 4.0 * at) << "round " << round << " element " << i;
            ASSERT_EQ(difference[i], 2.0 * at) << "round " << round << " element " << i;
            ASSERT_EQ(greater_values[i], i > 0) << "round " << round << " element " << i;
        }
    }
}

// More layouts than a kernel keeps records of: old ones are replaced, results stay right.
TEST(RepeatedCalls, ElementwiseCyclingManyShapes) {
    KILN_REQUIRE_DEVICE();
    const kiln::ElementwiseKernel negate("T x", "T y", "y = -x", "repeat_negate");
    for (int round = 0; round < 2; ++round) {
        for (std::int64_t n = 1; n <= 12; ++n) {
            const auto y = negate({kiln::arange(0.0, static_cast<double>(n), 1.0)}).get<double>();
            ASSERT_EQ(y.size(), static_cast<std::size_t>(n));
            for (std::size_t i = 0; i < y.size(); ++i) {
                ASSERT_EQ(y[i], -static_cast<double>(i));
            }
        }
    }
}

// Each call, recorded or replayed, runs on the stream it is given: with the current stream held
// up by a spinning kernel, calls given another stream finish, and see their own inputs.
TEST(RepeatedCalls, EachCallRunsOnItsOwnStream) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_UNDER_SANITIZER(kiln::test::times_device_against_host);
    kiln::test::TestKernels kernels;
    const kiln::ElementwiseKernel affine("T x, T a", "T y", "y = a * x + 1", "repeat_affine");
    const kiln::ReductionKernel sum("T x", "T y", "x", "a + b", "y = a", "0", "repeat_stream_sum");
    const kiln::Stream busy(true);
    const kiln::Stream free(true);
    const ndarray x = kiln::arange(0.0, 1000.0, 1.0);
    // Compiled beforehand (another length, so the calls below still record first): loading a
    // module may wait for the device.
    (void)sum({affine({kiln::arange(0.0, 10.0, 1.0), 1.0})});
    kiln::Device::current().synchronize();

    const kiln::StreamGuard current(busy);
    kernels.spin(busy, kiln::test::spin_cycles(500));
    for (int round = 1; round <= 2; ++round) {  // the first round records, the second replays
        const ndarray y = affine({x, static_cast<double>(round)}, {.stream = free.view()});
        const ndarray total = sum({y}, {.stream = free.view()});
        std::vector<double> values(1000);
        std::vector<double> sums(1);
        y.get(std::span<double>(values), free.view());
        total.get(std::span<double>(sums), free.view());
        free.synchronize();
        EXPECT_FALSE(busy.done()) << "the spin should outlast round " << round;
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < values.size(); ++i) {
            wrong += values[i] != round * static_cast<double>(i) + 1 ? 1 : 0;
        }
        EXPECT_EQ(wrong, 0U) << "round " << round;
        EXPECT_EQ(sums[0], round * 499'500.0 + 1000) << "round " << round;
    }
    busy.synchronize();
}

TEST(RepeatedCalls, ElementwiseEmptyAndNoReturn) {
    KILN_REQUIRE_DEVICE();
    const kiln::ElementwiseKernel fill("T x", "T y", "y = x", "repeat_fill", {.no_return = true});
    const ndarray x = kiln::arange(0.0, 10.0, 1.0);
    for (int round = 0; round < 2; ++round) {
        const ndarray y = kiln::zeros({10});
        const ndarray none = fill({x, y});
        EXPECT_EQ(none.size(), 0);
        EXPECT_EQ(y.get<double>(), x.get<double>());
        EXPECT_EQ(fill({kiln::zeros({0}), kiln::zeros({0})}).size(), 0);
    }
}

TEST(RepeatedCalls, ReductionSeesEachCallsDataScalarAndAxes) {
    KILN_REQUIRE_DEVICE();
    const kiln::ReductionKernel weighted("T x, T w", "T y", "x * w", "a + b", "y = a", "0",
                                         "repeat_weighted_sum");
    for (int round = 1; round <= 3; ++round) {
        const ndarray x = kiln::array(iota(12, round)).reshape({3, 4});
        const auto all = weighted({x, 2.0}).get<double>();
        const auto rows = weighted({x, 2.0}, {.axis = 1}).get<double>();
        const ndarray cols = weighted({x, 1.0}, {.axis = 0, .keepdims = true});
        ASSERT_EQ(all.size(), 1U);
        EXPECT_EQ(all[0], 2.0 * round * 66.0);  // 2 * round * (0 + ... + 11)
        ASSERT_EQ(rows.size(), 3U);
        for (std::size_t r = 0; r < 3; ++r) {
            EXPECT_EQ(rows[r], 2.0 * round * static_cast<double>((16 * r) + 6));
        }
        EXPECT_EQ(cols.shape(), (kiln::Shape{1, 4}));
        const auto c = cols.get<double>();
        for (std::size_t k = 0; k < 4; ++k) {
            EXPECT_EQ(c[k], round * static_cast<double>(12 + 3 * k));
        }
    }
}

TEST(RepeatedCalls, ReductionSplitWithScratchAndGivenOutputs) {
    KILN_REQUIRE_DEVICE();
    const kiln::ReductionKernel sum("T x", "T y", "x", "a + b", "y = a", "0", "repeat_sum");
    const std::int64_t n = 1 << 22;  // long enough to be split over blocks, with partials
    for (int round = 1; round <= 3; ++round) {
        const ndarray x = kiln::full({n}, static_cast<std::int64_t>(round), kiln::int64);
        const ndarray given = kiln::zeros({}, kiln::int64);
        const auto allocated = sum({x}).get<std::int64_t>();
        (void)sum.outputs(std::vector<kiln::Argument>{x}, {.out = {given}});
        EXPECT_EQ(allocated, std::vector<std::int64_t>{round * n});
        EXPECT_EQ(given.get<std::int64_t>(), std::vector<std::int64_t>{round * n});
    }
}

TEST(RepeatedCalls, ReductionOverNothingKeepsItsShape) {
    KILN_REQUIRE_DEVICE();
    const kiln::ReductionKernel sum("T x", "T y", "x", "a + b", "y = a", "0", "repeat_empty");
    for (int round = 0; round < 2; ++round) {
        const ndarray y = sum({kiln::zeros({0, 3})}, {.axis = 1});
        EXPECT_EQ(y.shape(), (kiln::Shape{0}));
    }
}

// Objects of one definition share its state; a definition that differs in any option does not.
TEST(RepeatedCalls, ObjectsOfOneDefinitionShareOnlyThat) {
    KILN_REQUIRE_DEVICE();
    const ndarray x = kiln::arange(0.0, 5.0, 1.0);
    const ndarray y = kiln::zeros({5});
    for (int round = 0; round < 2; ++round) {
        const kiln::ElementwiseKernel returning("T x", "T y", "y = x * 3", "repeat_shared");
        const kiln::ElementwiseKernel silent("T x", "T y", "y = x * 3", "repeat_shared",
                                             {.no_return = true});
        const kiln::ElementwiseKernel other("T x", "T y", "y = x * 4", "repeat_shared");
        EXPECT_EQ(returning({x}).get<double>(), (std::vector<double>{0, 3, 6, 9, 12}));
        EXPECT_EQ(silent({x, y}).size(), 0);
        EXPECT_EQ(y.get<double>(), (std::vector<double>{0, 3, 6, 9, 12}));
        EXPECT_EQ(other({x}).get<double>(), (std::vector<double>{0, 4, 8, 12, 16}));
        const kiln::RawKernel raw(R"(extern "C" __global__ void repeat_fill(double* y) {
            y[threadIdx.x] = 7 + threadIdx.x; })",
                                  "repeat_fill");
        raw(kiln::Dim3{1}, kiln::Dim3{5}, {y});
        EXPECT_EQ(y.get<double>(), (std::vector<double>{7, 8, 9, 10, 11}));
    }
}

}  // namespace
