// Lazy fusion (include/kiln/lazy.hpp): every deferred result (ufuncs, operators, where, clip,
// astype, and the reductions fused with them) against the same code run eagerly, bit for bit,
// and the hazards of deferring: in-place writes to what an expression reads, views,
// inputs dropped before it runs, other streams and devices, threads, unbounded growth, and one
// compile for a loop that changes only scalars.
#include "core/array/pending_array.hpp"
#include "core/fusion/lazy_expression.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/use_allocator.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using kiln::DType;
using kiln::ndarray;
using kiln::Shape;

using kiln::LazyFusionScope;

std::vector<double> host_values(std::int64_t n, int seed) {
    std::vector<double> v;
    for (std::int64_t i = 0; i < n; ++i) {
        v.push_back(std::sin(0.37 * static_cast<double>(i + 1) * (seed + 1)) * 8.0);
    }
    return v;
}

ndarray values(const Shape& shape, DType dtype, int seed) {
    std::int64_t n = 1;
    for (const auto extent : shape) {
        n *= extent;
    }
    return kiln::array(host_values(n, seed), shape).astype(dtype);
}

// The value's bytes, so that NaNs and signed zeros compare by their bits.
template <class T>
std::array<unsigned char, sizeof(T)> bits_of(const T& value) {
    std::array<unsigned char, sizeof(T)> bits{};
    std::memcpy(bits.data(), &value, sizeof(T));
    return bits;
}

// `f` run eagerly and deferred: the deferred result is pending until read, and bitwise the eager.
template <class T>
void expect_bitwise(const std::function<ndarray()>& f) {
    ndarray eager;
    {
        const LazyFusionScope off(false);
        eager = f();
        ASSERT_EQ(eager.pending(), nullptr);
    }
    const LazyFusionScope on(true);
    const ndarray lazy = f();
    EXPECT_EQ(lazy.dtype(), eager.dtype());
    EXPECT_EQ(lazy.shape(), eager.shape());
    const auto want = eager.get<T>();
    const auto got = lazy.get<T>();
    ASSERT_EQ(got.size(), want.size());
    if constexpr (std::is_same_v<T, bool>) {
        EXPECT_EQ(got, want);
    } else {  // bits, so that NaNs compare too
        for (std::size_t i = 0; i < got.size(); ++i) {
            if (bits_of(got[i]) != bits_of(want[i])) {
                ADD_FAILURE() << "element " << i << " differs (" << kiln::name(lazy.dtype()) << ")";
                break;
            }
        }
    }
}

TEST(LazyFusion, IsOnByDefaultAndTheSwitchTurnsItOff) {
    KILN_REQUIRE_DEVICE();
    // Each test's guard restores the switch, so it reads as KILN_LAZY left it.
    const char* const variable = std::getenv("KILN_LAZY");
    EXPECT_EQ(kiln::lazy_fusion(), variable == nullptr || std::string(variable) != "0");
    const ndarray a = values({5}, DType::float64, 0);
    {
        const LazyFusionScope off(false);
        EXPECT_EQ((a + 1.0).pending(), nullptr);
    }
    const LazyFusionScope on(true);
    EXPECT_NE((a + 1.0).pending(), nullptr);
    EXPECT_NE(kiln::where(a > 0.0, a, -a).pending(), nullptr);
}

TEST(LazyFusion, AScopeSetsTheSwitchAndRestoresItNested) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({5}, DType::float64, 0);
    const bool at_start = kiln::lazy_fusion();
    for (const bool outside : {false, true}) {
        kiln::set_lazy_fusion(outside);
        {
            const LazyFusionScope outer(!outside);
            EXPECT_EQ(kiln::lazy_fusion(), !outside);
            EXPECT_EQ((a + 1.0).pending() != nullptr, !outside);
            {
                const LazyFusionScope inner(outside);
                EXPECT_EQ(kiln::lazy_fusion(), outside);
                EXPECT_EQ((a * 2.0).pending() != nullptr, outside);
                {
                    const LazyFusionScope same(outside);
                    EXPECT_EQ(kiln::lazy_fusion(), outside);
                }
                EXPECT_EQ(kiln::lazy_fusion(), outside) << "a scope restores its own previous";
            }
            EXPECT_EQ(kiln::lazy_fusion(), !outside) << "the inner scope restored the outer's";
            EXPECT_EQ((a - 1.0).pending() != nullptr, !outside);
        }
        EXPECT_EQ(kiln::lazy_fusion(), outside);
        // An exception leaving the scope restores the switch too.
        try {
            const LazyFusionScope thrown(!outside);
            throw kiln::ValueError("leaving the scope");
        } catch (const kiln::ValueError&) {
            EXPECT_EQ(kiln::lazy_fusion(), outside);
        }
    }
    kiln::set_lazy_fusion(at_start);  // for the tests after this one
}

TEST(LazyFusion, ChainsAreBitwiseTheEagerOnes) {
    KILN_REQUIRE_DEVICE();
    const Shape shape{7, 33};
    for (const DType dtype : {DType::float32, DType::float64}) {
        const ndarray a = values(shape, dtype, 1);
        const ndarray b = values(shape, dtype, 2);
        const auto chain = [&] {
            return ((a - b) * 0.5 + a / (b + 3.0)) * 2.0 - kiln::exp(a * 0.1) + kiln::sqrt(b * b);
        };
        if (dtype == DType::float32) {
            expect_bitwise<float>(chain);
        } else {
            expect_bitwise<double>(chain);
        }
    }
}

TEST(LazyFusion, IntermediateDtypesPromoteAsEagerly) {
    KILN_REQUIRE_DEVICE();
    const ndarray i16 = values({4, 9}, DType::int16, 3);
    const ndarray f32 = values({9}, DType::float32, 4);
    const ndarray f64 = values({4, 1}, DType::float64, 5);
    // int16 / int16 is float64; int16 * float32 is float32; a comparison is bool.
    expect_bitwise<double>([&] { return (i16 / (i16 + 20)) * f32 + f64; });
    expect_bitwise<float>([&] { return i16 * f32 - 1.5; });
    expect_bitwise<bool>([&] { return (i16 * 3) > (f32 + 2.0); });
    expect_bitwise<std::int16_t>([&] { return kiln::where(i16 > 0, i16 * 2, i16 - 7); });
    expect_bitwise<std::int32_t>([&] {
        const ndarray i32 = values({4, 9}, DType::int32, 6);
        return (i32 * 7 + i16) % 5;
    });
}

TEST(LazyFusion, ErrorsRaiseAtTheCallAsEagerly) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({3, 4}, DType::float64, 0);
    const ndarray b = values({5}, DType::float64, 1);
    std::string eager;
    try {
        const LazyFusionScope off(false);
        (void)(a + b);
    } catch (const kiln::ShapeError& error) {
        eager = error.what();
    }
    ASSERT_FALSE(eager.empty());
    const LazyFusionScope on(true);
    try {
        (void)(a * 2.0 + b);
        FAIL() << "no ShapeError";
    } catch (const kiln::ShapeError& error) {
        EXPECT_EQ(std::string(error.what()), eager);
    }
    EXPECT_THROW((void)kiln::bitwise_and(a * 2.0, a), kiln::TypeError);
}

TEST(LazyFusion, AReductionOfAPendingArrayIsOneKernelBitwiseTheEager) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({64, 100}, DType::float64, 1);
    const ndarray b = values({64, 100}, DType::float64, 2);
    expect_bitwise<double>([&] { return kiln::mean((a - b) * (a - b)); });
    expect_bitwise<double>([&] { return kiln::sum(a * b + 1.0, {.axis = 1}); });
    expect_bitwise<double>([&] { return kiln::max(a - b, {.axis = 0, .keepdims = true}); });
    expect_bitwise<double>([&] { return kiln::min(kiln::absolute(a) * -2.0); });
    expect_bitwise<double>([&] { return kiln::prod(a * 0.01 + 1.0, {.axis = -1}); });
    // The map was fused: the expression it reads was never computed.
    const LazyFusionScope on(true);
    const ndarray d = a - b;
    const ndarray squared = d * d;
    const ndarray m = kiln::mean(squared);
    ASSERT_NE(squared.pending(), nullptr);
    EXPECT_FALSE(squared.pending()->evaluated());
    EXPECT_FALSE(d.pending()->evaluated());
    EXPECT_EQ(m.pending(), nullptr);
}

// Every reduction fuses a pending input: the NaN-ignoring forms (with NaNs in the chain), all, any
// and count_nonzero, bitwise the eager ones, over every element and along an axis.
TEST(LazyFusion, NanReductionsAndTruthReductionsFuseBitwiseTheEager) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({64, 100}, DType::float64, 1);
    const ndarray b = values({64, 100}, DType::float64, 2);
    // NaN where a < b (about half of the elements), else a - b.
    const auto with_nans = [&] { return kiln::sqrt(a - b); };
    using Reduce = ndarray (*)(const ndarray&, const kiln::ReduceOptions&);
    const std::vector<std::pair<std::string, Reduce>> nan_forms = {
        {"nansum", &kiln::nansum}, {"nanprod", &kiln::nanprod}, {"nanmean", &kiln::nanmean},
        {"nanvar", &kiln::nanvar}, {"nanstd", &kiln::nanstd},   {"nanmax", &kiln::nanmax},
        {"nanmin", &kiln::nanmin}};
    for (const auto& [name, reduce] : nan_forms) {
        SCOPED_TRACE(name);
        expect_bitwise<double>([&] { return reduce(with_nans(), {}); });
        expect_bitwise<double>([&] { return reduce(with_nans(), {.axis = 1}); });
    }
    const std::vector<std::pair<std::string, Reduce>> truth = {{"all", &kiln::all},
                                                               {"any", &kiln::any}};
    for (const auto& [name, reduce] : truth) {
        SCOPED_TRACE(name);
        expect_bitwise<bool>([&] { return reduce(kiln::greater(a * 2.0, b), {}); });
        expect_bitwise<bool>([&] { return reduce(a - b, {.axis = 0}); });
    }
    expect_bitwise<std::int64_t>([&] { return kiln::count_nonzero(kiln::less(a, b), {}); });
    expect_bitwise<std::int64_t>(
        [&] { return kiln::count_nonzero(kiln::floor(a - b), {.axis = 1}); });
    // Fused: the chains were never computed on their own.
    const LazyFusionScope on(true);
    const ndarray nans = with_nans();
    const ndarray mask = kiln::less(a, b);
    (void)kiln::nanmean(nans);
    (void)kiln::count_nonzero(mask);
    EXPECT_FALSE(nans.pending()->evaluated());
    EXPECT_FALSE(mask.pending()->evaluated());
}

TEST(LazyFusion, AnInPlaceWriteComesAfterTheExpressionsReadingTheArray) {
    KILN_REQUIRE_DEVICE();
    const LazyFusionScope on(true);
    ndarray a = values({50}, DType::float64, 1);
    const ndarray b = values({50}, DType::float64, 2);
    const auto a0 = a.get<double>();
    const auto b0 = b.get<double>();
    const ndarray c = a + b;
    const ndarray d = c * 2.0;  // reads a through c
    a += 1.0;
    ndarray view = a[{kiln::Slice{0, 10}}];
    const ndarray e = a * 3.0;
    view.fill(kiln::Scalar(0.0));  // writes a through a view
    const auto got_c = c.get<double>();
    const auto got_d = d.get<double>();
    const auto got_e = e.get<double>();
    for (std::size_t i = 0; i < a0.size(); ++i) {
        EXPECT_EQ(got_c[i], a0[i] + b0[i]) << i;
        EXPECT_EQ(got_d[i], (a0[i] + b0[i]) * 2.0) << i;
        EXPECT_EQ(got_e[i], (a0[i] + 1.0) * 3.0) << i;
    }
}

TEST(LazyFusion, ViewsOfPendingArraysSeeItsValues) {
    KILN_REQUIRE_DEVICE();
    const LazyFusionScope on(true);
    const ndarray a = values({6, 8}, DType::float64, 1);
    const auto host = a.get<double>();
    const ndarray c = a * 2.0 + 1.0;
    const ndarray column = c[{kiln::Slice{}, 3}];
    const ndarray t = c.transpose();
    ndarray flat = c.reshape({48});
    const auto got = column.get<double>();
    for (std::size_t r = 0; r < 6; ++r) {
        EXPECT_EQ(got[r], host[r * 8 + 3] * 2.0 + 1.0);
    }
    EXPECT_EQ(t.copy().get<double>()[1], host[8] * 2.0 + 1.0);
    // A write through a view shows in the array, and in what reads it after.
    flat.fill(kiln::Scalar(4.0));
    EXPECT_EQ(c.get<double>()[47], 4.0);
    EXPECT_EQ((c - 1.0).get<double>()[0], 3.0);
}

// A deferred result shares an operand's shape and strides only where they are its own C-order
// ones: not a transposed or broadcast operand's, nor those of an operand with another itemsize.
TEST(LazyFusion, AResultIsCContiguousWhateverItsOperandsLayouts) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({2, 3}, DType::float64, 1);
    const ndarray u = values({3, 2}, DType::float64, 2);
    const ndarray i = values({3, 2}, DType::int32, 3);
    const ndarray row = values({2}, DType::float64, 4);
    const std::array<std::function<ndarray()>, 4> cases{
        [&] { return a.transpose() + u; },
        [&] { return i + u; },
        [&] {
            return kiln::broadcast_to(row, {3, 2}) + u;
        },
        [&] { return i == i; },
    };
    for (const auto& f : cases) {
        expect_bitwise<double>([&] { return f().astype(DType::float64); });
        const LazyFusionScope on(true);
        const ndarray result = f();
        ASSERT_NE(result.pending(), nullptr);
        const auto item = static_cast<std::int64_t>(result.itemsize());
        EXPECT_EQ(result.strides(), (kiln::Strides{2 * item, item})) << kiln::name(result.dtype());
        EXPECT_TRUE(result.c_contiguous());
    }
    // Operands laid out as the result: it takes their strides, and its values are its own.
    const LazyFusionScope on(true);
    const ndarray same = u + u;
    EXPECT_EQ(same.strides(), u.strides());
    EXPECT_EQ(same.get<double>()[5], u.get<double>()[5] * 2.0);
}

TEST(LazyFusion, AnExpressionKeepsItsInputsAlive) {
    KILN_REQUIRE_DEVICE();
    const auto x = host_values(1000, 1);
    const auto y = host_values(1000, 2);
    const auto compute = [&] { return kiln::array(x) * kiln::array(y) + 1.0; };
    std::vector<double> want;
    {
        const LazyFusionScope off(false);
        want = compute().get<double>();
    }
    const LazyFusionScope on(true);
    const ndarray c = compute();  // its inputs' handles are gone
    // Other allocations may reuse freed memory; the expression's inputs are not freed.
    const ndarray noise = kiln::full({1000}, kiln::Scalar(-7.0));
    EXPECT_EQ(c.get<double>(), want);
    EXPECT_EQ(noise.get<double>()[0], -7.0);
}

TEST(LazyFusion, StreamsAndSynchronizationRunWhatWasIssued) {
    KILN_REQUIRE_DEVICE();
    const LazyFusionScope on(true);
    const ndarray a = values({256}, DType::float64, 1);
    const auto host = a.get<double>();
    kiln::Stream first;
    kiln::Stream second;
    ndarray c;
    {
        const kiln::StreamGuard on_first(first);
        c = a * 3.0;
        first.synchronize();
        EXPECT_TRUE(c.pending()->evaluated()) << "a synchronize runs what its stream holds";
        c = a * 5.0;
    }
    const kiln::Event issued = first.record();
    EXPECT_TRUE(c.pending()->evaluated()) << "an event records after what was issued";
    ndarray d;
    {
        const kiln::StreamGuard on_second(second);
        kiln::wait_event(kiln::current_stream(), issued);
        d = c + 1.0;
    }
    second.synchronize();
    const auto got = d.get<double>();
    for (std::size_t i = 0; i < host.size(); ++i) {
        EXPECT_EQ(got[i], host[i] * 5.0 + 1.0) << i;
    }
}

// A stream's synchronize, record and wait, and another device's synchronize, run only what was
// issued on that stream or device: what another stream holds stays pending until its own turn.
TEST(LazyFusion, AStreamRunsOnlyWhatWasIssuedOnIt) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({300}, DType::float64, 1);
    const ndarray b = values({300}, DType::float64, 2);
    const auto on_first = [&] { return (a * 3.0 + b) / 7.0; };
    const auto on_second = [&] { return a - b * 0.5; };
    std::vector<double> want_c;
    std::vector<double> want_d;
    {
        const LazyFusionScope off(false);
        want_c = on_first().get<double>();
        want_d = on_second().get<double>();
    }
    const LazyFusionScope on(true);
    kiln::Stream first;
    kiln::Stream second;
    const std::size_t before = kiln::detail::pending_count();
    ndarray c;
    {
        const kiln::StreamGuard guard(first);
        c = on_first();
    }
    const std::size_t with_c = kiln::detail::pending_count();
    ASSERT_GT(with_c, before);
    ndarray d;
    {
        const kiln::StreamGuard guard(second);
        d = on_second();
    }
    EXPECT_GT(kiln::detail::pending_count(), with_c);
    second.synchronize();
    EXPECT_TRUE(d.pending()->evaluated());
    EXPECT_FALSE(c.pending()->evaluated()) << "the other stream's expression stays pending";
    EXPECT_EQ(kiln::detail::pending_count(), with_c);
    const kiln::Event event = second.record();
    second.wait_event(event);
    (void)second.done();
    if (kiln::device_count() > 1) {
        kiln::Device(1).synchronize();
    }
    EXPECT_EQ(kiln::detail::pending_count(), with_c) << "records, waits and syncs elsewhere";
    first.synchronize();
    EXPECT_TRUE(c.pending()->evaluated());
    EXPECT_EQ(kiln::detail::pending_count(), before);
    EXPECT_EQ(c.get<double>(), want_c);
    EXPECT_EQ(d.get<double>(), want_d);
    // Asking whether a stream is done launches what it holds; a device's synchronize runs what
    // any of its streams holds.
    {
        const kiln::StreamGuard guard(first);
        c = on_first();
    }
    {
        const kiln::StreamGuard guard(second);
        d = on_second();
    }
    (void)first.done();
    EXPECT_TRUE(c.pending()->evaluated());
    EXPECT_FALSE(d.pending()->evaluated());
    kiln::Device::current().synchronize();
    EXPECT_TRUE(d.pending()->evaluated());
    EXPECT_EQ(kiln::detail::pending_count(), before);
    EXPECT_EQ(c.get<double>(), want_c);
    EXPECT_EQ(d.get<double>(), want_d);
}

// A graph launched on a stream may write what an expression deferred there reads: the expression
// runs first, as it would have eagerly.
TEST(LazyFusion, AGraphLaunchRunsWhatItsStreamHoldsFirst) {
    KILN_REQUIRE_DEVICE();
    const LazyFusionScope on(true);
    const auto start = host_values(500, 1);
    const ndarray x = kiln::array(start);
    kiln::Stream stream(true);
    kiln::Device::current().synchronize();
    // Warm: compiling and allocating stay out of the capture.
    (void)kiln::add(x, 1.0, {.out = x, .stream = stream});
    stream.begin_capture();
    (void)kiln::add(x, 1.0, {.out = x, .stream = stream});
    const kiln::Graph graph = stream.end_capture();
    ndarray c;
    {
        const kiln::StreamGuard guard(stream);
        c = x * 2.0;
    }
    ASSERT_FALSE(c.pending()->evaluated());
    graph.launch(stream);
    EXPECT_TRUE(c.pending()->evaluated());
    stream.synchronize();
    const auto got = c.get<double>();
    const auto now = x.get<double>();
    for (std::size_t i = 0; i < start.size(); ++i) {
        EXPECT_EQ(got[i], (start[i] + 1.0) * 2.0) << i;
        EXPECT_EQ(now[i], (start[i] + 1.0) + 1.0) << i;
    }
}

using kiln::test::UseAllocator;

// When an allocation finds the pool at its limit, the device's deferred expressions run (their
// nodes' inputs, which nothing else holds, are freed) and it is tried once more: a plain
// allocation, and a deferred expression's own result. The values are the eager ones.
TEST(LazyFusion, MemoryRunningShortRunsTheDeferredExpressionsAndTriesAgain) {
    KILN_REQUIRE_DEVICE();
    constexpr std::int64_t n = 16384;  // 128 KiB of float64: whole 512-byte blocks
    constexpr std::size_t bytes = n * sizeof(double);
    const auto x = host_values(n, 1);
    const auto y = host_values(n, 2);
    const auto z = host_values(n, 3);
    const auto w = host_values(2 * n, 4);
    // The inputs' handles go at once: only the expression's node holds them.
    const auto deferred = [&] {
        return (kiln::array(x) - kiln::array(y)) * kiln::array(z) + kiln::array(x);
    };
    std::vector<double> want;
    {
        const LazyFusionScope off(false);
        want = deferred().get<double>();
    }
    kiln::MemoryPool pool;
    const UseAllocator use(pool);
    const LazyFusionScope on(true);
    {
        // Four inputs in use; room for one more array of n.
        const ndarray r = deferred();
        ASSERT_EQ(pool.used_bytes(), 4 * bytes);
        pool.free_all_blocks();
        pool.set_limit(5 * bytes);
        // Two arrays of n: 6 > 5 until the expression runs (5) and frees its four inputs (1).
        const ndarray big = kiln::empty({2 * n});
        EXPECT_TRUE(r.pending()->evaluated());
        EXPECT_EQ(pool.used_bytes(), 3 * bytes);
        EXPECT_EQ(r.get<double>(), want);
        pool.set_limit(0);
    }
    {
        const ndarray r = deferred();
        const ndarray doubled = kiln::array(w) * 2.0;  // its result needs two arrays of n
        pool.free_all_blocks();
        pool.set_limit(7 * bytes);
        // Six in use: the expression's four inputs and w. doubled's result does not fit until r
        // runs (7) and frees its inputs (3).
        const auto got = doubled.get<double>();
        EXPECT_TRUE(r.pending()->evaluated());
        for (std::size_t i = 0; i < w.size(); ++i) {
            EXPECT_EQ(got[i], w[i] * 2.0) << i;
        }
        EXPECT_EQ(r.get<double>(), want);
        pool.set_limit(0);
    }
    // With nothing deferred to run, running short raises as before.
    pool.set_limit(2 * bytes);
    EXPECT_THROW((void)kiln::empty({3 * n}), kiln::OutOfMemory);
    pool.set_limit(0);
}

TEST(LazyFusion, EachDeviceRunsItsOwn) {
    KILN_REQUIRE_TWO_DEVICES();
    const LazyFusionScope on(true);
    const ndarray a = values({100}, DType::float64, 1);
    const auto host = a.get<double>();
    ndarray on_one;
    {
        const kiln::DeviceGuard one(kiln::Device(1));
        const ndarray b = a.to_device(kiln::Device(1));
        on_one = b * 2.0 - 1.0;
    }
    const ndarray on_zero = a * 2.0 - 1.0;
    EXPECT_EQ(on_one.device(), 1);
    EXPECT_EQ(on_zero.device(), 0);
    const auto one = on_one.get<double>();
    const auto zero = on_zero.get<double>();
    for (std::size_t i = 0; i < host.size(); ++i) {
        EXPECT_EQ(one[i], host[i] * 2.0 - 1.0);
        EXPECT_EQ(zero[i], host[i] * 2.0 - 1.0);
    }
}

// A copy from another device orders the two devices' streams around itself only: expressions
// deferred on either stream that the copy does not read stay pending (kiln's distributed
// reductions copy partial results while the caller still holds the shards' chains).
TEST(LazyFusion, ACopyAcrossDevicesRunsOnlyWhatItReads) {
    KILN_REQUIRE_TWO_DEVICES();
    const LazyFusionScope on(true);
    const ndarray a = values({100}, DType::float64, 1);
    const auto host = a.get<double>();
    ndarray held_on_one;
    ndarray copied_from_one;
    {
        const kiln::DeviceGuard one(kiln::Device(1));
        const ndarray b = a.to_device(kiln::Device(1));
        held_on_one = b * 2.0;
        copied_from_one = b - 1.0;
    }
    const ndarray held_on_zero = a + 3.0;
    ndarray into = kiln::empty({100}, DType::float64);
    kiln::copyto(into, copied_from_one);
    EXPECT_TRUE(copied_from_one.pending()->evaluated());
    EXPECT_FALSE(held_on_one.pending()->evaluated()) << "device 1's other expression runs later";
    EXPECT_FALSE(held_on_zero.pending()->evaluated()) << "device 0's expression runs later";
    const auto got = into.get<double>();
    const auto twice = held_on_one.get<double>();
    const auto plus = held_on_zero.get<double>();
    for (std::size_t i = 0; i < host.size(); ++i) {
        EXPECT_EQ(got[i], host[i] - 1.0);
        EXPECT_EQ(twice[i], host[i] * 2.0);
        EXPECT_EQ(plus[i], host[i] + 3.0);
    }
}

TEST(LazyFusion, ThreadsShareAPendingArray) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({4096}, DType::float64, 1);
    const auto mine = [&](const ndarray& shared, std::size_t t) {
        const ndarray m = shared * static_cast<double>(t + 1) - 1.0;
        return (t % 2 == 0 ? m : kiln::sqrt(m * m)).get<double>();
    };
    std::vector<std::vector<double>> want(4);
    {
        const LazyFusionScope off(false);
        for (std::size_t t = 0; t < want.size(); ++t) {
            want[t] = mine(a * 3.0 + 0.5, t);
        }
    }
    const LazyFusionScope on(true);
    const ndarray shared = a * 3.0 + 0.5;
    std::vector<std::vector<double>> results(want.size());
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < results.size(); ++t) {
        threads.emplace_back([&, t] { results[t] = mine(shared, t); });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    for (std::size_t t = 0; t < results.size(); ++t) {
        EXPECT_EQ(results[t], want[t]) << t;
    }
}

TEST(LazyFusion, AGrowingExpressionRunsAtABoundedSize) {
    KILN_REQUIRE_DEVICE();
    const ndarray start = values({1000}, DType::float64, 1);
    const auto loop = [&] {
        ndarray x = start;
        for (int i = 0; i < 5000; ++i) {
            x = x * 0.5 + 1.0;
        }
        return x;
    };
    expect_bitwise<double>(loop);
    const LazyFusionScope on(true);
    const ndarray x = loop();
    // Only the last stretch of the chain is pending: at most the bound's 64 operations.
    EXPECT_LE(kiln::detail::pending_count(), 64U);
    EXPECT_NEAR(x.get<double>()[0], 2.0, 1e-12);
}

// Compile requests so far: compiles and cache hits.
std::uint64_t compile_requests() {
    const kiln::CompileCacheStatistics s = kiln::compile_cache_statistics();
    return s.compiles + s.memory_hits + s.disk_hits;
}

// A loop of scalar updates splits at the bounds into stretches that repeat one step; every
// stretch and every tail of two steps or more runs one kernel, whose step count is an argument.
TEST(LazyFusion, AScalarUpdateLoopAsksForOneKernel) {
    KILN_REQUIRE_DEVICE();
    const ndarray start = values({1000}, DType::float32, 1);
    (void)start.data();  // computed: a deferred cast would be the first stretch's first operation
    const auto loop = [&](int updates) {
        ndarray x = start;
        for (int i = 0; i < updates; ++i) {
            x = x * (1.0 - 1e-4 * i) + 1e-3 * i;
        }
        return x;
    };
    const std::array<int, 4> lengths{1000, 37, 64, 2};
    {
        const LazyFusionScope on(true);
        const auto before = compile_requests();
        for (const int updates : lengths) {
            (void)loop(updates).get<float>();
        }
        EXPECT_LE(compile_requests() - before, 1U);
    }
    for (const int updates : lengths) {
        SCOPED_TRACE(updates);
        expect_bitwise<float>([&] { return loop(updates); });
    }
}

// A rolled step that reads an array of the prefix on every step: the same bits as eagerly, and
// one kernel for loops of any length.
TEST(LazyFusion, ARolledStepReadsAnArrayOfThePrefix) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({500}, DType::float64, 2);
    const ndarray b = values({500}, DType::float64, 3);
    const ndarray base = a - b;
    (void)base.data();
    const auto loop = [&](int updates) {
        ndarray y = base * 0.5;
        for (int i = 0; i < updates; ++i) {
            y = kiln::maximum(y * (0.25 + 0.01 * i), -0.1 * i) + base;
        }
        return y;
    };
    {
        const LazyFusionScope on(true);
        (void)loop(3).get<double>();
        const auto before = compile_requests();
        for (const int updates : {5, 11}) {
            (void)loop(updates).get<double>();
        }
        EXPECT_EQ(compile_requests(), before) << "loops of 3, 5 and 11 steps share one kernel";
    }
    for (const int updates : {3, 11, 40}) {
        SCOPED_TRACE(updates);
        expect_bitwise<double>([&] { return loop(updates); });
    }
}

// Two loops whose first steps are one node, y - y and y - y, but whose later steps read the
// carried value on either side of a subtraction: each gets its own kernel and the eager bits.
TEST(LazyFusion, RolledStepsThatDifferOnlyInWhatTheyCarryDoNotShareAKernel) {
    KILN_REQUIRE_DEVICE();
    const ndarray base = values({300}, DType::float64, 4);
    (void)base.data();
    const auto loop = [&](bool flipped) {
        ndarray y = base;
        for (int i = 0; i < 6; ++i) {
            y = (flipped ? base - y : y - base) * (0.5 + 0.125 * i);
        }
        return y;
    };
    expect_bitwise<double>([&] { return loop(false); });
    expect_bitwise<double>([&] { return loop(true); });
}

// `run(i)` for i in [0, count), eagerly and deferred: the same values, and after the first
// deferred run no compile, every kernel found by the expression's structure.
template <class F>
void expect_compiled_once(int count, const F& run) {
    std::vector<decltype(run(0))> want;
    {
        const LazyFusionScope off(false);
        for (int i = 0; i < count; ++i) {
            want.push_back(run(i));
        }
    }
    const LazyFusionScope on(true);
    EXPECT_EQ(run(0), want[0]);
    const kiln::CompileCacheStatistics before = kiln::compile_cache_statistics();
    for (int i = 1; i < count; ++i) {
        EXPECT_EQ(run(i), want[static_cast<std::size_t>(i)]) << i;
    }
    const kiln::CompileCacheStatistics after = kiln::compile_cache_statistics();
    EXPECT_EQ(after.compiles, before.compiles);
    EXPECT_EQ(after.memory_hits + after.disk_hits, before.memory_hits + before.disk_hits)
        << "the kernel was found by the expression's structure, without a compile request";
}

TEST(LazyFusion, ALoopChangingOnlyScalarsCompilesOnce) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({300}, DType::float32, 1);
    expect_compiled_once(30, [&](int i) {
        const double s = 0.25 * i;
        return ((a * s + static_cast<double>(i)) / (s + 1.0)).get<float>();
    });
}

// expect_bitwise with the element type of `dtype`.
void expect_bitwise_as(DType dtype, const std::function<ndarray()>& f) {
    SCOPED_TRACE(std::string(kiln::name(dtype)));
    switch (dtype) {
        case DType::bool_:
            return expect_bitwise<bool>(f);
        case DType::int8:
            return expect_bitwise<std::int8_t>(f);
        case DType::int32:
            return expect_bitwise<std::int32_t>(f);
        case DType::int64:
            return expect_bitwise<std::int64_t>(f);
        case DType::float32:
            return expect_bitwise<float>(f);
        case DType::float64:
            return expect_bitwise<double>(f);
        case DType::complex64:
            return expect_bitwise<std::complex<float>>(f);
        default:
            FAIL() << "no element type for " << kiln::name(dtype);
    }
}

// The message of the exception `f` throws, lazy fusion on or off.
std::string message_of(bool lazy, const std::function<void()>& f) {
    const LazyFusionScope scope(lazy);
    try {
        f();
    } catch (const kiln::Error& error) {
        return error.what();
    }
    ADD_FAILURE() << "no error, lazy " << lazy;
    return {};
}

void expect_error_as_eager(const std::function<void()>& f) {
    const std::string eager = message_of(false, f);
    EXPECT_FALSE(eager.empty());
    EXPECT_EQ(message_of(true, f), eager);
}

// Shapes every deferred call is checked over: 0-d, zero-size, 2-d.
const std::vector<Shape> shapes = {{}, {0, 3}, {5, 7}};

// Values with NaN, infinities, signed zeros and a float32 overflow, for casts between floats.
ndarray special_values() {
    const double inf = std::numeric_limits<double>::infinity();
    return kiln::array(std::vector<double>{std::numeric_limits<double>::quiet_NaN(), inf, -inf,
                                           -0.0, 0.0, 1e40, -1e-320, 0.1, 2.5, -3.5});
}

TEST(LazyFusion, AstypeIsDeferredAndBitwiseTheEagerConversion) {
    KILN_REQUIRE_DEVICE();
    // Targets whose conversion is defined for every value below (|v| <= 8, no float to unsigned).
    const std::vector<DType> dtypes = {DType::float32, DType::float64, DType::int32,
                                       DType::int8,    DType::bool_,   DType::complex64};
    for (const Shape& shape : shapes) {
        for (const DType from : dtypes) {
            const ndarray a = values(shape, from, 1);
            const ndarray row = values(shape.empty() ? Shape{} : Shape{shape.back()}, from, 2);
            for (const DType to : dtypes) {
                SCOPED_TRACE(std::string(kiln::name(from)) + " to " + std::string(kiln::name(to)) +
                             ", shape " + kiln::to_string(shape));
                expect_bitwise_as(to, [&] { return a.astype(to); });
                // A chain before and after the cast, with a broadcast operand.
                expect_bitwise_as(to, [&] { return ((a + row) * a).astype(to); });
                expect_bitwise_as(to, [&] {
                    return kiln::where(a.astype(DType::bool_), a.astype(to), row.astype(to));
                });
                if (shape.size() == 2) {  // a non-contiguous view
                    expect_bitwise_as(to, [&] { return a.transpose().astype(to); });
                }
            }
        }
    }
    const ndarray special = special_values();
    for (const DType to : {DType::float32, DType::float64, DType::bool_, DType::complex64}) {
        expect_bitwise_as(to, [&] { return (special * 1.0).astype(to); });
    }
    expect_bitwise<double>([&] { return special.astype(DType::float32).astype(DType::float64); });
}

TEST(LazyFusion, AstypeJoinsTheChainAndCopyFalseKeepsTheArray) {
    KILN_REQUIRE_DEVICE();
    const LazyFusionScope on(true);
    const ndarray a = values({40}, DType::float64, 1);
    const ndarray scaled = a * 3.0;
    const ndarray cast = scaled.astype(DType::float32);
    const ndarray shifted = cast + 1.0F;
    ASSERT_NE(cast.pending(), nullptr);
    EXPECT_EQ(cast.dtype(), DType::float32);
    EXPECT_EQ(cast.shape(), (Shape{40}));
    // One kernel: neither the product nor the cast was computed on its own (data() computes the
    // array without the synchronize of get(), which runs everything pending).
    (void)shifted.data();
    EXPECT_FALSE(scaled.pending()->evaluated());
    EXPECT_FALSE(cast.pending()->evaluated());
    const auto got = shifted.get<float>();
    const auto host = a.get<double>();
    for (std::size_t i = 0; i < host.size(); ++i) {
        EXPECT_EQ(got[i], static_cast<float>(host[i] * 3.0) + 1.0F) << i;
    }
    // astype to the same dtype without a copy is the array itself, pending or not.
    const ndarray same = scaled.astype(DType::float64, false);
    EXPECT_EQ(same.pending(), scaled.pending());
    EXPECT_EQ(a.astype(DType::float64, false).data(), a.data());
}

TEST(LazyFusion, ADeferredCopyIsASnapshotBeforeLaterWrites) {
    KILN_REQUIRE_DEVICE();
    const LazyFusionScope on(true);
    ndarray a = values({50}, DType::float64, 1);
    const auto before = a.get<double>();
    const ndarray snapshot = a.copy();
    const ndarray narrowed = a.astype(DType::float32);
    ASSERT_NE(snapshot.pending(), nullptr);
    a += 1.0;
    a.fill(kiln::Scalar(3.0));
    EXPECT_EQ(snapshot.get<double>(), before);
    const auto got = narrowed.get<float>();
    for (std::size_t i = 0; i < before.size(); ++i) {
        EXPECT_EQ(got[i], static_cast<float>(before[i])) << i;
    }
}

TEST(LazyFusion, ClipIsDeferredAndBitwiseTheEager) {
    KILN_REQUIRE_DEVICE();
    for (const Shape& shape : shapes) {
        SCOPED_TRACE(kiln::to_string(shape));
        for (const DType dtype : {DType::float32, DType::float64, DType::int32, DType::bool_}) {
            const ndarray a = values(shape, dtype, 1);
            const ndarray low = values(shape.empty() ? Shape{} : Shape{shape.back()}, dtype, 2);
            expect_bitwise_as(dtype, [&] { return kiln::clip(a, low, a); });
            if (dtype != DType::bool_) {
                expect_bitwise_as(dtype, [&] { return kiln::clip(a * 2, -3, 4); });
                expect_bitwise_as(dtype, [&] { return kiln::clip(a, low, 5) + low; });
            }
            if (shape.size() == 2) {
                expect_bitwise_as(dtype, [&] {
                    return kiln::clip(a.transpose(), a[{kiln::Slice{}, 0}], true);
                });
            }
        }
    }
    // NaN propagates from the values and from a bound, as eagerly; a float bound of ints.
    const ndarray special = special_values();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    expect_bitwise<double>([&] { return kiln::clip(special * 2.0, -1.0, 3.0); });
    expect_bitwise<double>([&] { return kiln::clip(special + 0.0, nan, 3.0); });
    expect_bitwise<float>([&] { return kiln::clip(special.astype(DType::float32), -2.0, nan); });
    const ndarray ints = values({9}, DType::int32, 3);
    expect_bitwise<double>([&] { return kiln::clip(ints * 2, -2.5, ints.astype(DType::float64)); });
    const LazyFusionScope on(true);
    const ndarray clipped = kiln::clip(ints * 2, -3, 3);
    ASSERT_NE(clipped.pending(), nullptr);
    EXPECT_FALSE(clipped.pending()->evaluated());
}

TEST(LazyFusion, ClipAndAstypeErrorsRaiseAtTheCallAsEagerly) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({3, 4}, DType::float64, 0);
    const ndarray i8 = values({3, 4}, DType::int8, 1);
    const ndarray z = values({4}, DType::complex64, 2);
    expect_error_as_eager([&] { (void)kiln::clip(a * 2.0, values({5}, DType::float64, 1), 1.0); });
    expect_error_as_eager([&] { (void)kiln::clip(i8 + 1, 0, 1000); });  // 1000 is no int8
    expect_error_as_eager([&] { (void)kiln::clip(z * 2.0F, 0.0, 1.0); });
    expect_error_as_eager([&] { (void)kiln::argmax(z * 2.0F); });
    expect_error_as_eager([&] { (void)kiln::argmax(a * 2.0, {.axis = kiln::Axis{0, 1}}); });
    expect_error_as_eager([&] { (void)kiln::var(a * 2.0, {.axis = 2}); });
    expect_error_as_eager([&] { (void)kiln::argmin(kiln::zeros({0}) + 1.0); });  // no identity
}

TEST(LazyFusion, ALoopChangingOnlyClipBoundsCompilesOnce) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({300}, DType::float32, 1);
    expect_compiled_once(20, [&](int i) {
        return kiln::clip(a * 2.0F, -0.5 * i, 0.25 * i + 1.0).astype(DType::float64).get<double>();
    });
}

// The reductions with a routine parameter or several members, each of a pending chain.
std::vector<std::function<ndarray(const ndarray&)>> moment_and_index_reductions(DType dtype) {
    std::vector<std::function<ndarray(const ndarray&)>> reductions = {
        [](const ndarray& x) { return kiln::var(x); },
        [](const ndarray& x) { return kiln::var(x, {.axis = 1, .ddof = 1}); },
        [](const ndarray& x) { return kiln::std(x, {.axis = 0, .keepdims = true}); },
        [](const ndarray& x) {
            return kiln::std(x, {.axis = kiln::Axis{0, 1}, .ddof = 2});
        },
        [](const ndarray& x) { return kiln::linalg::norm(x); },
        [](const ndarray& x) { return kiln::linalg::norm(x, {.ord = 3.0, .axis = 1}); },
        [](const ndarray& x) {
            return kiln::linalg::norm(x, {.ord = 1.0, .axis = -1, .keepdims = true});
        },
        [](const ndarray& x) {
            return kiln::linalg::norm(x,
                                      {.ord = -std::numeric_limits<double>::infinity(), .axis = 0});
        },
        [](const ndarray& x) { return kiln::linalg::norm(x, {.ord = 1.0}); },  // a matrix norm
    };
    if (dtype != DType::complex64) {
        reductions.emplace_back([](const ndarray& x) { return kiln::argmax(x); });
        reductions.emplace_back([](const ndarray& x) { return kiln::argmin(x, {.axis = 1}); });
        reductions.emplace_back(
            [](const ndarray& x) { return kiln::argmax(x, {.axis = 0, .keepdims = true}); });
    }
    return reductions;
}

TEST(LazyFusion, VarStdNormArgmaxOfAPendingArrayAreOneKernelBitwiseTheEager) {
    KILN_REQUIRE_DEVICE();
    for (const DType dtype :
         {DType::float32, DType::float64, DType::int32, DType::bool_, DType::complex64}) {
        const ndarray a = values({64, 100}, dtype, 1);
        const ndarray b = values({64, 100}, dtype, 2);
        const ndarray row = values({100}, dtype, 3);
        const ndarray column = values({100, 64}, dtype, 4);
        // Fused (arrays of the chain's shape), and computed first: a broadcast operand and a
        // transposed view.
        const std::vector<std::function<ndarray()>> chains = {
            [&] { return dtype == DType::bool_ ? kiln::logical_xor(a, b) : (a - b) * a; },
            [&] { return dtype == DType::bool_ ? kiln::logical_and(a, row) : a * b - row; },
            [&] {
                return dtype == DType::bool_ ? kiln::logical_or(column.transpose(), b)
                                             : column.transpose() + b;
            },
        };
        const auto reductions = moment_and_index_reductions(dtype);
        for (std::size_t c = 0; c < chains.size(); ++c) {
            for (std::size_t r = 0; r < reductions.size(); ++r) {
                SCOPED_TRACE("chain " + std::to_string(c) + ", reduction " + std::to_string(r));
                DType result{};
                {
                    const LazyFusionScope off(false);
                    result = reductions[r](chains[c]()).dtype();
                }
                expect_bitwise_as(result, [&] { return reductions[r](chains[c]()); });
            }
        }
        const LazyFusionScope on(true);
        const ndarray fused = chains[0]();
        for (const auto& reduce : reductions) {
            (void)reduce(fused);
        }
        EXPECT_FALSE(fused.pending()->evaluated()) << kiln::name(dtype);
    }
    // The map was fused: the chain was never computed, and the result is not pending.
    const LazyFusionScope on(true);
    const ndarray a = values({64, 100}, DType::float64, 1);
    const ndarray b = values({64, 100}, DType::float64, 2);
    const ndarray d = a - b;
    for (const auto& reduce : moment_and_index_reductions(DType::float64)) {
        const ndarray reduced = reduce(d * d);
        EXPECT_EQ(reduced.pending(), nullptr);
        EXPECT_FALSE(d.pending()->evaluated());
    }
    // A broadcast operand would change the reduction's order of combining: the chain runs first.
    const ndarray shifted = a - values({100}, DType::float64, 3);
    (void)kiln::var(shifted);
    EXPECT_TRUE(shifted.pending()->evaluated());
}

// A requested dtype is the accumulator and the result, as eagerly: the chain still fuses.
TEST(LazyFusion, AReductionWithADtypeIsOneKernelBitwiseTheEager) {
    KILN_REQUIRE_DEVICE();
    const ndarray f = values({64, 100}, DType::float32, 1);
    const ndarray g = values({64, 100}, DType::float32, 2);
    const ndarray i = values({64, 100}, DType::int32, 3);
    const ndarray j = values({64, 100}, DType::int32, 4);
    struct Case {
        std::string what;
        DType dtype;
        std::function<ndarray(const ndarray&)> reduce;
        std::function<ndarray()> chain;
    };
    const auto float_chain = [&] { return (f - g) * f + 0.5F; };
    const auto int_chain = [&] { return i * 3 - j; };
    const auto near_one = [&] { return f * 0.01F + 1.0F; };
    const std::vector<Case> cases = {
        {"sum float32 as float64", DType::float64,
         [](const ndarray& x) { return kiln::sum(x, {.dtype = DType::float64}); }, float_chain},
        {"sum float32 as float64 along 1", DType::float64,
         [](const ndarray& x) { return kiln::sum(x, {.axis = 1, .dtype = DType::float64}); },
         float_chain},
        {"sum int32 as int32", DType::int32,
         [](const ndarray& x) { return kiln::sum(x, {.dtype = DType::int32}); }, int_chain},
        {"mean int32 as float32", DType::float32,
         [](const ndarray& x) { return kiln::mean(x, {.dtype = DType::float32}); }, int_chain},
        {"mean int32 as float64 along 0", DType::float64,
         [](const ndarray& x) { return kiln::mean(x, {.axis = 0, .dtype = DType::float64}); },
         int_chain},
        {"prod float32 as float64 along -1", DType::float64,
         [](const ndarray& x) { return kiln::prod(x, {.axis = -1, .dtype = DType::float64}); },
         near_one},
        {"prod int32 as float64 along 1", DType::float64,
         [](const ndarray& x) {
             return kiln::prod(kiln::absolute(x) % 2 + 1, {.axis = 1, .dtype = DType::float64});
         },
         int_chain},
        {"var float32 as float64", DType::float64,
         [](const ndarray& x) { return kiln::var(x, {.dtype = DType::float64}); }, float_chain},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        expect_bitwise_as(c.dtype, [&] { return c.reduce(c.chain()); });
        const LazyFusionScope on(true);
        const ndarray chain = c.chain();
        const ndarray reduced = c.reduce(chain);
        EXPECT_EQ(reduced.dtype(), c.dtype);
        EXPECT_EQ(reduced.pending(), nullptr);
        EXPECT_FALSE(chain.pending()->evaluated()) << "the chain was computed on its own";
    }
    // One kernel asked of the compile cache: a structure no other test builds, fused into the sum.
    const LazyFusionScope on(true);
    const auto requests = [] {
        const kiln::CompileCacheStatistics s = kiln::compile_cache_statistics();
        return s.compiles + s.memory_hits + s.disk_hits;
    };
    const auto before = requests();
    const ndarray chain = kiln::fmin(kiln::fmax(f, g) * 0.25F, f - 1.0F);
    const ndarray total = kiln::sum(chain, {.dtype = DType::float64});
    // Before the result is read, whose synchronize runs the chain the caller still holds.
    EXPECT_EQ(requests() - before, 1U);
    EXPECT_FALSE(chain.pending()->evaluated());
    const auto got = total.item<double>();
    // Against the sum of float32 elements in float64, computed here: close, not the kernel's bits
    // (its order of combining is its own).
    const auto fh = f.get<float>();
    const auto gh = g.get<float>();
    double want = 0;
    for (std::size_t e = 0; e < fh.size(); ++e) {
        want += static_cast<double>(std::fmin(std::fmax(fh[e], gh[e]) * 0.25F, fh[e] - 1.0F));
    }
    EXPECT_NEAR(got, want, 1e-9 * static_cast<double>(fh.size()));
}

// A reduction into an out of its result's dtype fuses the chain as one without out does, bitwise
// the eager one; an out of another dtype (the result casts into it) runs the chain first.
TEST(LazyFusion, AReductionIntoOutFusesBitwiseTheEager) {
    KILN_REQUIRE_DEVICE();
    const ndarray f = values({64, 100}, DType::float32, 1);
    const ndarray g = values({64, 100}, DType::float32, 2);
    const auto chain = [&] { return (f - g) * f + 0.5F; };
    expect_bitwise_as(DType::float32, [&] {
        const ndarray out = kiln::zeros({64}, DType::float32);
        return kiln::sum(chain(), {.axis = 1, .out = out});
    });
    expect_bitwise_as(DType::float64, [&] {
        const ndarray out = kiln::zeros({}, DType::float64);
        return kiln::mean(chain(), {.dtype = DType::float64, .out = out});
    });
    // out is a column of an array the chain reads: the reduction reads it all before writing.
    expect_bitwise_as(DType::float32, [&] {
        const ndarray h = f.copy();
        kiln::max((h - g) * h, {.axis = 1, .out = h[{kiln::Slice{}, 0}]});
        return h;
    });
    const LazyFusionScope on(true);
    const ndarray out = kiln::zeros({100}, DType::float32);
    const ndarray fused = chain();
    const ndarray into = kiln::sum(fused, {.axis = 0, .out = out});
    EXPECT_EQ(into.data(), out.data());
    EXPECT_FALSE(fused.pending()->evaluated()) << "the chain was computed on its own";
    const ndarray wider = kiln::zeros({100}, DType::float64);
    const ndarray cast = chain();
    (void)kiln::sum(cast, {.axis = 0, .out = wider});
    EXPECT_TRUE(cast.pending()->evaluated());
    EXPECT_EQ(wider.get<double>(), out.astype(DType::float64).get<double>());
}

TEST(LazyFusion, ReductionsOfZeroDimensionalAndEmptyPendingArraysAreTheEagerOnes) {
    KILN_REQUIRE_DEVICE();
    const ndarray scalar = values({}, DType::float64, 1);
    const ndarray empty = values({0, 3}, DType::float32, 1);
    expect_bitwise<double>([&] { return kiln::var(scalar * 2.0); });
    expect_bitwise<double>([&] { return kiln::linalg::norm(scalar - 1.0); });
    expect_bitwise<std::int64_t>([&] { return kiln::argmax(scalar * 2.0); });
    expect_bitwise<float>([&] { return kiln::var(empty * 2.0F, {.axis = 0}); });
    expect_bitwise<float>([&] { return kiln::std(empty * 2.0F); });
    expect_bitwise<float>([&] { return kiln::linalg::norm(empty + 1.0F, {.axis = 1}); });
}

TEST(LazyFusion, ALoopChangingOnlyDdofOrOrdCompilesOnce) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({20, 30}, DType::float64, 1);
    expect_compiled_once(10, [&](int i) {
        const ndarray x = a * 0.5 - 1.0;
        return std::vector<double>{
            kiln::var(x, {.axis = 1, .ddof = i % 5}).get<double>()[0],
            kiln::linalg::norm(x, {.ord = 1.5 + 0.5 * i, .axis = 0}).get<double>()[0]};
    });
}

}  // namespace

TEST(LazyFusion, ASynchronizeRunsAChainAsOneKernelAndWhatTheCallerHolds) {
    KILN_REQUIRE_DEVICE();
    const LazyFusionScope on(true);
    const ndarray a = values({4, 8, 16}, DType::float32, 2);
    const ndarray b = values({4, 8, 16}, DType::float32, 3);
    // A structure no other test builds, so that its one kernel is asked of the compile cache
    // here; each intermediate run alone would be a kernel of its own.
    const auto requests = [] {
        const kiln::CompileCacheStatistics s = kiln::compile_cache_statistics();
        return s.compiles + s.memory_hits + s.disk_hits;
    };
    const auto before = requests();
    const ndarray c = kiln::fmax(kiln::fmin(a, b) - a, b) * 0.75;
    kiln::synchronize(kiln::current_stream());
    EXPECT_TRUE(c.pending()->evaluated());
    EXPECT_EQ(requests() - before, 1U);
    // An intermediate the caller holds is on the stream after the synchronize too.
    const ndarray sum = a + b;
    const ndarray d = sum * 2.0 - a;
    kiln::synchronize(kiln::current_stream());
    EXPECT_TRUE(d.pending()->evaluated());
    EXPECT_TRUE(sum.pending()->evaluated());
    const auto a_host = a.get<float>();
    const auto b_host = b.get<float>();
    const auto got = sum.get<float>();
    for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i], a_host[i] + b_host[i]) << i;
    }
}

TEST(LazyFusion, AnArrayReadTwiceIsOneKernelArgument) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({64}, DType::float32, 4);
    const ndarray b = values({64}, DType::float32, 5);
    expect_bitwise<float>([&] { return (a - b) * (a + b) - a; });
    const LazyFusionScope on(true);
    const ndarray c = (a - b) * (a + b) - a;
    const auto expression = kiln::detail::LazyExpression::pending_of(c);
    ASSERT_NE(expression, nullptr);
    kiln::detail::LazyGraph graph;
    (void)graph.add(*expression->operation());
    EXPECT_EQ(graph.arguments().size(), 2U) << "a and b, each once";
    // Another view of the same memory is another argument.
    const ndarray reversed = a[{kiln::Slice{std::nullopt, std::nullopt, -1}}];
    const ndarray d = a + reversed;
    kiln::detail::LazyGraph views;
    (void)views.add(*kiln::detail::LazyExpression::pending_of(d)->operation());
    EXPECT_EQ(views.arguments().size(), 2U);
    const auto got = d.get<float>();
    const auto host = a.get<float>();
    for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i], host[i] + host[host.size() - 1 - i]) << i;
    }
}

// An operation whose operands are all computed is computed without building its graph (a
// kernel found by the operation's key): its values, kernel arguments and kernel are the graph's.
TEST(LazyFusion, OneOperationOverComputedArraysIsBitwiseTheEager) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({5, 7}, DType::float32, 1);
    const ndarray b = values({5, 7}, DType::float64, 2);
    const ndarray row = values({7}, DType::float32, 3);
    (void)a.data();
    (void)b.data();
    (void)row.data();
    const ndarray flipped = a[{kiln::Slice{std::nullopt, std::nullopt, -1}}];
    expect_bitwise<double>([&] { return a + b; });
    expect_bitwise<float>([&] { return a * a; });  // one argument read twice
    expect_bitwise<float>([&] { return a - flipped; });
    expect_bitwise<float>([&] { return flipped * a; });
    expect_bitwise<float>([&] { return 2.5 - a; });
    expect_bitwise<float>([&] { return kiln::clip(a, row, 2.0); });
    expect_bitwise<float>([&] { return kiln::clip(a, a, row); });  // a, then row: two arguments
    expect_bitwise<double>([&] { return a.astype(DType::float64); });
    expect_bitwise<float>([&] {
        const ndarray positive = a > 0.0;
        (void)positive.data();
        return kiln::where(positive, a, 1.5);
    });
    expect_bitwise<double>([&] {  // an operand deferred, then computed before the read
        const ndarray sum = a + row;
        (void)sum.data();
        return sum * b;
    });
    // Other arrays and scalars of the same dtypes find the kernel without a compile request.
    expect_compiled_once(8, [&](int i) {
        const ndarray x = values({40}, DType::float32, i);
        (void)x.data();
        const ndarray y = x * x;
        (void)y.data();
        return (y - 0.5 * i).get<float>();
    });
}
