// Lazy fusion (include/kiln/lazy.hpp): every deferred result against the same code run eagerly,
// bit for bit, and the hazards of deferring: in-place writes to what an expression reads, views,
// inputs dropped before it runs, other streams and devices, threads, unbounded growth, and one
// compile for a loop that changes only scalars.
#include "core/array/pending_array.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/lazy_fusion.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

using kiln::DType;
using kiln::ndarray;
using kiln::Shape;

using kiln::test::LazyFusion;

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

// `f` run eagerly and deferred: the deferred result is pending until read, and bitwise the eager.
template <class T>
void expect_bitwise(const std::function<ndarray()>& f) {
    ndarray eager;
    {
        const LazyFusion off(false);
        eager = f();
        ASSERT_EQ(eager.pending(), nullptr);
    }
    const LazyFusion on(true);
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
            if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
                ADD_FAILURE() << "element " << i << ": " << static_cast<double>(got[i]) << " vs "
                              << static_cast<double>(want[i]) << " (" << kiln::name(lazy.dtype())
                              << ")";
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
        const LazyFusion off(false);
        EXPECT_EQ((a + 1.0).pending(), nullptr);
    }
    const LazyFusion on(true);
    EXPECT_NE((a + 1.0).pending(), nullptr);
    EXPECT_NE(kiln::where(a > 0.0, a, -a).pending(), nullptr);
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
        const LazyFusion off(false);
        (void)(a + b);
    } catch (const kiln::ShapeError& error) {
        eager = error.what();
    }
    ASSERT_FALSE(eager.empty());
    const LazyFusion on(true);
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
    const LazyFusion on(true);
    const ndarray d = a - b;
    const ndarray squared = d * d;
    const ndarray m = kiln::mean(squared);
    ASSERT_NE(squared.pending(), nullptr);
    EXPECT_FALSE(squared.pending()->evaluated());
    EXPECT_FALSE(d.pending()->evaluated());
    EXPECT_EQ(m.pending(), nullptr);
}

TEST(LazyFusion, AnInPlaceWriteComesAfterTheExpressionsReadingTheArray) {
    KILN_REQUIRE_DEVICE();
    const LazyFusion on(true);
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
    const LazyFusion on(true);
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

TEST(LazyFusion, AnExpressionKeepsItsInputsAlive) {
    KILN_REQUIRE_DEVICE();
    const auto x = host_values(1000, 1);
    const auto y = host_values(1000, 2);
    const auto compute = [&] { return kiln::array(x) * kiln::array(y) + 1.0; };
    std::vector<double> want;
    {
        const LazyFusion off(false);
        want = compute().get<double>();
    }
    const LazyFusion on(true);
    const ndarray c = compute();  // its inputs' handles are gone
    // Other allocations may reuse freed memory; the expression's inputs are not freed.
    const ndarray noise = kiln::full({1000}, kiln::Scalar(-7.0));
    EXPECT_EQ(c.get<double>(), want);
    EXPECT_EQ(noise.get<double>()[0], -7.0);
}

TEST(LazyFusion, StreamsAndSynchronizationRunWhatWasIssued) {
    KILN_REQUIRE_DEVICE();
    const LazyFusion on(true);
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
        const LazyFusion off(false);
        want_c = on_first().get<double>();
        want_d = on_second().get<double>();
    }
    const LazyFusion on(true);
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
    const LazyFusion on(true);
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

// Routes the current device's arrays to `resource` while in scope.
class UseAllocator {
public:
    explicit UseAllocator(kiln::MemoryResource& resource) { kiln::set_allocator(&resource); }
    ~UseAllocator() { kiln::set_allocator(nullptr); }
    UseAllocator(const UseAllocator&) = delete;
    UseAllocator& operator=(const UseAllocator&) = delete;
    UseAllocator(UseAllocator&&) = delete;
    UseAllocator& operator=(UseAllocator&&) = delete;
};

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
        const LazyFusion off(false);
        want = deferred().get<double>();
    }
    kiln::MemoryPool pool;
    const UseAllocator use(pool);
    const LazyFusion on(true);
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
    KILN_REQUIRE_DEVICE();
    if (kiln::device_count() < 2) {
        GTEST_SKIP() << "one device";
    }
    const LazyFusion on(true);
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

TEST(LazyFusion, ThreadsShareAPendingArray) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({4096}, DType::float64, 1);
    const auto mine = [&](const ndarray& shared, std::size_t t) {
        const ndarray m = shared * static_cast<double>(t + 1) - 1.0;
        return (t % 2 == 0 ? m : kiln::sqrt(m * m)).get<double>();
    };
    std::vector<std::vector<double>> want(4);
    {
        const LazyFusion off(false);
        for (std::size_t t = 0; t < want.size(); ++t) {
            want[t] = mine(a * 3.0 + 0.5, t);
        }
    }
    const LazyFusion on(true);
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
    const LazyFusion on(true);
    const ndarray x = loop();
    // Only the last stretch of the chain is pending: at most the bound's 64 operations.
    EXPECT_LE(kiln::detail::pending_count(), 64U);
    EXPECT_NEAR(x.get<double>()[0], 2.0, 1e-12);
}

TEST(LazyFusion, ALoopChangingOnlyScalarsCompilesOnce) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = values({300}, DType::float32, 1);
    const auto run = [&](int i) {
        const double s = 0.25 * i;
        return ((a * s + static_cast<double>(i)) / (s + 1.0)).get<float>();
    };
    std::vector<std::vector<float>> want;
    {
        const LazyFusion off(false);
        for (int i = 0; i < 30; ++i) {
            want.push_back(run(i));
        }
    }
    const LazyFusion on(true);
    EXPECT_EQ(run(0), want[0]);
    const kiln::CompileCacheStatistics before = kiln::compile_cache_statistics();
    for (int i = 1; i < 30; ++i) {
        EXPECT_EQ(run(i), want[static_cast<std::size_t>(i)]) << i;
    }
    const kiln::CompileCacheStatistics after = kiln::compile_cache_statistics();
    EXPECT_EQ(after.compiles, before.compiles);
    EXPECT_EQ(after.memory_hits + after.disk_hits, before.memory_hits + before.disk_hits)
        << "the kernel was found by the expression's structure, without a compile request";
}

}  // namespace
