// Streams, events, graphs and guards on a real GPU. Skips, saying why, without one.
#include "core/backend.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/test_kernels.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

using kiln::test::spin_cycles;
using kiln::test::TestKernels;

// A device int for tests: allocated, zeroed and read back synchronously.
class DeviceInt {
public:
    DeviceInt()
        : device_(kiln::detail::backend().current_device()),
          ptr_(static_cast<int*>(kiln::detail::backend().allocate(device_, sizeof(int)))) {
        set(0);
    }
    ~DeviceInt() { kiln::detail::backend().deallocate(device_, ptr_); }
    DeviceInt(const DeviceInt&) = delete;
    DeviceInt& operator=(const DeviceInt&) = delete;
    DeviceInt(DeviceInt&&) = delete;
    DeviceInt& operator=(DeviceInt&&) = delete;

    [[nodiscard]] int* get() const { return ptr_; }
    [[nodiscard]] int value() const {
        int v = 0;
        kiln::detail::backend().copy(&v, ptr_, sizeof v);
        return v;
    }
    void set(int v) { kiln::detail::backend().copy(ptr_, &v, sizeof v); }

private:
    int device_;
    int* ptr_;
};

TEST(Stream, SynchronizeDoneAndMovedFromUse) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_UNDER_SANITIZER(kiln::test::times_device_against_host);
    kiln::Stream stream;
    EXPECT_EQ(stream.device(), kiln::Device::current().id());
    TestKernels kernels;
    kernels.spin(stream, spin_cycles(20));
    EXPECT_FALSE(stream.done()) << "a 20 ms kernel finished before the host asked";
    stream.synchronize();
    EXPECT_TRUE(stream.done());

    kiln::Stream moved(std::move(stream));
    EXPECT_TRUE(moved.done());
    try {
        (void)stream.view();  // NOLINT(bugprone-use-after-move): the point of the test
        FAIL() << "expected kiln::Error";
    } catch (const kiln::Error& e) {
        EXPECT_NE(std::string(e.what()).find("moved-from Stream"), std::string::npos);
    }
}

TEST(Stream, PrioritiesAreClampedToTheDeviceRange) {
    KILN_REQUIRE_DEVICE();
    const auto& p = kiln::Device::current().properties();
    EXPECT_EQ(kiln::Stream(false, -1000).priority(), p.greatest_stream_priority);
    EXPECT_EQ(kiln::Stream(false, 1000).priority(), p.least_stream_priority);
    EXPECT_EQ(kiln::Stream().priority(),
              std::clamp(0, p.greatest_stream_priority, p.least_stream_priority));
    kiln::Stream urgent(true, p.greatest_stream_priority);
    TestKernels kernels;
    DeviceInt value;
    kernels.store(urgent, value.get(), 9);
    urgent.synchronize();
    EXPECT_EQ(value.value(), 9);
}

// Stream B waits on an event recorded on A after a slow kernel and a store: B must see the store.
TEST(Stream, WaitEventOrdersAcrossStreams) {
    KILN_REQUIRE_DEVICE();
    TestKernels kernels;
    DeviceInt flag;
    DeviceInt seen;
    kiln::Stream a(true);
    kiln::Stream b(true);
    kernels.spin(a, spin_cycles(30));
    kernels.store(a, flag.get(), 7);
    const kiln::Event stored = a.record();
    b.wait_event(stored);
    kernels.copy_int(b, flag.get(), seen.get());
    b.synchronize();
    EXPECT_EQ(seen.value(), 7);
}

TEST(Event, TimesAKernelAndRefusesIncompleteOrUntimedEvents) {
    KILN_REQUIRE_DEVICE();
    TestKernels kernels;
    kiln::Stream stream;
    kiln::Event start;
    kiln::Event end;
    start.record(stream);
    kernels.spin(stream, spin_cycles(200));
    end.record(stream);
    try {
        (void)kiln::elapsed_time(start, end);
        ADD_FAILURE() << "expected kiln::Error before the events completed";
    } catch (const kiln::Error& e) {
        EXPECT_NE(std::string(e.what()).find("has not completed"), std::string::npos) << e.what();
    }
    end.synchronize();
    EXPECT_TRUE(end.done());
    const float ms = kiln::elapsed_time(start, end);
    EXPECT_GT(ms, 20.0F);
    EXPECT_LT(ms, 2000.0F);

    kiln::Event never;
    EXPECT_THROW((void)kiln::elapsed_time(start, never), kiln::Error);
    kiln::Event untimed({.disable_timing = true});
    untimed.record(stream);
    stream.synchronize();
    EXPECT_THROW((void)kiln::elapsed_time(start, untimed), kiln::Error);
    EXPECT_THROW(kiln::Event({.interprocess = true}), kiln::Error);
    kiln::Event blocking({.block = true, .disable_timing = true});
    blocking.record(stream);
    blocking.synchronize();
    EXPECT_TRUE(blocking.done());
}

TEST(Stream, HostFunctionRunsAfterPriorWork) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_UNDER_SANITIZER(kiln::test::times_device_against_host);
    TestKernels kernels;
    DeviceInt value;
    kiln::Stream stream;
    std::atomic<bool> ran{false};
    kernels.spin(stream, spin_cycles(20));
    kernels.store(stream, value.get(), 5);
    stream.launch_host_func([&ran] { ran = true; });
    EXPECT_FALSE(ran.load()) << "ran before the 20 ms kernel ahead of it";
    stream.synchronize();
    EXPECT_TRUE(ran.load());
    EXPECT_EQ(value.value(), 5);
    EXPECT_THROW(stream.launch_host_func({}), kiln::Error);
}

TEST(Stream, GuardsNestPerThread) {
    KILN_REQUIRE_DEVICE();
    kiln::Stream s1;
    kiln::Stream s2;
    EXPECT_EQ(kiln::current_stream(), kiln::null_stream());
    {
        const kiln::StreamGuard outer(s1);
        EXPECT_EQ(kiln::current_stream(), s1.view());
        {
            const kiln::StreamGuard inner(s2);
            EXPECT_EQ(kiln::current_stream(), s2.view());
            kiln::StreamView seen_elsewhere{reinterpret_cast<void*>(1)};
            std::thread([&] { seen_elsewhere = kiln::current_stream(); }).join();
            EXPECT_EQ(seen_elsewhere, kiln::null_stream()) << "current stream leaked to a thread";
        }
        EXPECT_EQ(kiln::current_stream(), s1.view());
    }
    EXPECT_EQ(kiln::current_stream(), kiln::null_stream());
}

TEST(Stream, PerThreadDefaultStreamRunsWork) {
    KILN_REQUIRE_DEVICE();
    TestKernels kernels;
    DeviceInt value;
    EXPECT_NE(kiln::per_thread_stream(), kiln::null_stream());
    kernels.store(kiln::per_thread_stream(), value.get(), 3);
    kiln::synchronize(kiln::per_thread_stream());
    EXPECT_EQ(value.value(), 3);
}

// A stream kiln did not create, adopted as an ExternalStream; it ends before the stream does.
TEST(Stream, ExternalStreamView) {
    KILN_REQUIRE_DEVICE();
    auto& gpu = kiln::detail::backend();
    void* native = gpu.create_stream(gpu.current_device(), true, 0);
    {
        const kiln::ExternalStream external{native};
        EXPECT_EQ(external.view().native(), native);
        TestKernels kernels;
        DeviceInt value;
        kernels.store(external, value.get(), 11);
        kiln::synchronize(external);
        EXPECT_TRUE(kiln::done(external));
        EXPECT_EQ(value.value(), 11);
        const kiln::StreamGuard current(external);
        const kiln::ndarray a = kiln::arange(3);
        EXPECT_EQ(a.get<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2}));
    }
    gpu.destroy_stream(kiln::StreamView{native});
    EXPECT_THROW(kiln::ExternalStream{nullptr}, kiln::Error);
}

// Handles and arrays that outlive main are destroyed while the process exits: no vendor call
// may run then, and the process must exit cleanly.
TEST(DeviceDeathTest, HandlesDestroyedAtExitAreQuiet) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_UNDER_SANITIZER(kiln::test::death_test);
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            static kiln::Stream stream;
            static kiln::Event event;
            static const kiln::ndarray array = kiln::arange(1000);
            event.record(stream);
            std::exit(0);
        },
        testing::ExitedWithCode(0), "");
}

TEST(Graph, CaptureRunsNothingThenReplaysManyTimes) {
    KILN_REQUIRE_DEVICE();
    TestKernels kernels;
    DeviceInt counter;
    kiln::Stream stream(true);
    stream.begin_capture();
    kernels.increment(stream, counter.get());
    kernels.increment(stream, counter.get());
    const kiln::Graph graph = stream.end_capture();
    stream.synchronize();
    EXPECT_EQ(counter.value(), 0) << "captured work must not run";
    for (int i = 0; i < 5; ++i) {
        graph.launch(stream);
    }
    stream.synchronize();
    EXPECT_EQ(counter.value(), 10);
}

// Launches `graph`, which sums 0..n-1 into `captured`, 50 times on `launching`, each beside a sum
// of `ones` (n of them) on `summing`, and expects every sum exact.
void expect_exact_sums_beside(const kiln::Graph& graph, const kiln::ndarray& captured,
                              const kiln::ndarray& ones, const kiln::Stream& launching,
                              const kiln::Stream& summing) {
    const auto n = static_cast<double>(ones.size());
    std::vector<kiln::ndarray> sums;
    for (int i = 0; i < 50; ++i) {
        graph.launch(launching);
        sums.push_back(kiln::sum(ones, {.stream = summing}));
        kiln::Device::current().synchronize();
        ASSERT_EQ(captured.get<double>(), std::vector<double>{n * (n - 1) / 2}) << i;
    }
    for (const kiln::ndarray& s : sums) {
        EXPECT_EQ(s.get<double>(), std::vector<double>{n});
    }
}

// Memory a capture frees (a split sum's partials) stays the graph's while it lives: later calls
// on the capturing stream, running beside the graph's launches on another stream, get other
// memory, so neither corrupts the other's sums.
TEST(Graph, AGraphKeepsTheMemoryItsCaptureFreed) {
    KILN_REQUIRE_DEVICE();
    constexpr std::int64_t n = 1 << 22;
    const kiln::ndarray x = kiln::arange(0.0, static_cast<double>(n), 1.0, kiln::float64);
    const kiln::ndarray y = kiln::ones({n}, kiln::float64);
    const kiln::ndarray captured = kiln::zeros({}, kiln::float64);
    kiln::Stream first(true);
    kiln::Stream second(true);
    (void)kiln::sum(y, {.stream = first});  // its partials, freed, are the pool's to hand out
    kiln::Device::current().synchronize();
    first.begin_capture();
    (void)kiln::sum(x, {.out = captured, .stream = first});
    const kiln::Graph graph = first.end_capture();
    expect_exact_sums_beside(graph, captured, y, second, first);
}

// The same for memory freed on a stream forked into the capture: the sum there is captured with
// its partials (and as two launches, as on the capturing stream), and later sums on that stream
// get other memory while the graph runs on a third one.
TEST(Graph, AGraphKeepsTheMemoryAForkedStreamFreed) {
    KILN_REQUIRE_DEVICE();
    constexpr std::int64_t n = 1 << 22;
    const kiln::ndarray x = kiln::arange(0.0, static_cast<double>(n), 1.0, kiln::float64);
    const kiln::ndarray y = kiln::ones({n}, kiln::float64);
    const kiln::ndarray captured = kiln::zeros({}, kiln::float64);
    kiln::Stream origin(true);
    kiln::Stream forked(true);
    kiln::Stream other(true);
    (void)kiln::sum(y, {.stream = forked});
    kiln::Device::current().synchronize();
    origin.begin_capture();
    forked.wait_event(origin.record());
    (void)kiln::sum(x, {.out = captured, .stream = forked});
    origin.wait_event(forked.record());
    const kiln::Graph graph = origin.end_capture();
    expect_exact_sums_beside(graph, captured, y, other, forked);
}

// The memory a capture freed is in use while its graph lives, and back in the pool once the graph
// is destroyed, even with a launch of it still queued.
TEST(Graph, ADestroyedGraphGivesItsMemoryBack) {
    KILN_REQUIRE_DEVICE();
    const kiln::ndarray x = kiln::ones({std::int64_t{1} << 22}, kiln::float64);
    const kiln::ndarray total = kiln::zeros({}, kiln::float64);
    kiln::Stream stream(true);
    (void)kiln::sum(x, {.out = total, .stream = stream});
    kiln::Device::current().synchronize();
    const kiln::MemoryPool& pool = kiln::get_default_memory_pool();
    const std::size_t before = pool.used_bytes();
    {
        stream.begin_capture();
        (void)kiln::sum(x, {.out = total, .stream = stream});
        const kiln::Graph graph = stream.end_capture();
        EXPECT_GT(pool.used_bytes(), before) << "the partials stay the graph's";
        graph.launch(stream);
    }
    EXPECT_EQ(pool.used_bytes(), before);
    EXPECT_EQ(total.get<double>(), std::vector<double>{static_cast<double>(x.size())});
}

// Fork/join capture, as CUDA captures across streams: a stream that waits on an event recorded
// in a capture joins it, and its work belongs to the graph once the capturing stream waits on an
// event recorded after that work.
TEST(Graph, AForkedStreamsWorkIsCapturedInOrder) {
    KILN_REQUIRE_DEVICE();
    TestKernels kernels;
    DeviceInt first;
    DeviceInt second;
    kiln::Stream origin(true);
    kiln::Stream forked(true);
    origin.begin_capture();
    kernels.increment(origin, first.get());
    forked.wait_event(origin.record());
    kernels.copy_int(forked, first.get(), second.get());
    kernels.increment(forked, second.get());
    origin.wait_event(forked.record());
    kernels.increment(origin, first.get());
    const kiln::Graph graph = origin.end_capture();
    origin.synchronize();
    forked.synchronize();
    EXPECT_EQ(first.value(), 0) << "captured work must not run";
    EXPECT_EQ(second.value(), 0) << "the forked stream's captured work must not run";
    // Each launch: first += 1, second = first + 1, first += 1.
    graph.launch(origin);
    origin.synchronize();
    EXPECT_EQ(first.value(), 2);
    EXPECT_EQ(second.value(), 2);
    graph.launch(origin);
    origin.synchronize();
    EXPECT_EQ(first.value(), 4);
    EXPECT_EQ(second.value(), 4);
    // The forked stream left the capture with it: its work runs at once again.
    kernels.increment(forked, second.get());
    forked.synchronize();
    EXPECT_EQ(second.value(), 5);
}

// A forked stream whose last work the capture never waited for: ending the capture is an error
// (cudaErrorStreamCaptureUnjoined), and both streams run their work again afterwards.
TEST(Graph, EndingACaptureWithAnUnjoinedForkIsAnError) {
    KILN_REQUIRE_DEVICE();
    TestKernels kernels;
    DeviceInt value;
    kiln::Stream origin(true);
    kiln::Stream forked(true);
    origin.begin_capture();
    kernels.increment(origin, value.get());
    forked.wait_event(origin.record());
    kernels.increment(forked, value.get());
    try {
        (void)origin.end_capture();
        ADD_FAILURE() << "expected kiln::Error";
    } catch (const kiln::Error& e) {
        if (kiln::test::is_host()) {
            EXPECT_NE(std::string(e.what()).find("not joined back"), std::string::npos) << e.what();
        }
    }
    // One stream after the other: both increment the same integer.
    kernels.increment(forked, value.get());
    forked.synchronize();
    kernels.increment(origin, value.get());
    origin.synchronize();
    EXPECT_EQ(value.value(), 2) << "only the work after the failed capture ran";
}

TEST(Device, GuardRestoresTheCurrentDevice) {
    KILN_REQUIRE_DEVICE();
    const int count = kiln::device_count();
    const kiln::Device before = kiln::Device::current();
    {
        const kiln::DeviceGuard guard(kiln::Device(count - 1));
        EXPECT_EQ(kiln::Device::current().id(), count - 1);
    }
    EXPECT_EQ(kiln::Device::current(), before);
}

TEST(Device, StreamsPoolsAndArraysArePerDevice) {
    KILN_REQUIRE_DEVICE();
    if (kiln::device_count() < 2) {
        GTEST_SKIP() << "one " << kiln::test::backend_name << " device visible; needs two";
    }
    const kiln::ndarray on_first = kiln::arange(4);
    kiln::MemoryPool* first_pool = &kiln::get_default_memory_pool();
    const kiln::DeviceGuard guard(kiln::Device(1));
    kiln::Stream stream;
    EXPECT_EQ(stream.device(), 1);
    const kiln::StreamGuard current(stream);
    EXPECT_EQ(kiln::current_stream(), stream.view());
    {
        const kiln::DeviceGuard other(kiln::Device(0));
        EXPECT_EQ(kiln::current_stream(), kiln::null_stream()) << "current stream is per device";
    }
    EXPECT_NE(&kiln::get_default_memory_pool(), first_pool) << "pools are per device";
    // Built-in kernels are compiled and loaded for each device they run on.
    const kiln::ndarray on_second = kiln::arange(5).astype(kiln::float32);
    EXPECT_EQ(on_second.device(), 1);
    EXPECT_EQ(on_second.get<float>(), (std::vector<float>{0, 1, 2, 3, 4}));
    EXPECT_GT(kiln::get_default_memory_pool().used_bytes(), 0U);
    // Properties and synchronize of another device leave the current device alone.
    {
        const kiln::DeviceGuard first(kiln::Device(0));
        (void)kiln::Device(1).properties();
        kiln::Device(1).synchronize();
        EXPECT_EQ(kiln::Device::current().id(), 0);
        // A device-1 stream records its events on device 1, whatever is current.
        const kiln::Event recorded = stream.record();
        recorded.synchronize();
        // The device-1 pool orders device-1 streams from a device-0 thread.
        kiln::MemoryPool& second_pool = *[] {
            const kiln::DeviceGuard one(kiln::Device(1));
            return &kiln::get_default_memory_pool();
        }();
        kiln::Stream other_stream_on_1 = [] {
            const kiln::DeviceGuard one(kiln::Device(1));
            return kiln::Stream(true);
        }();
        void* block = second_pool.allocate(4096, stream);
        second_pool.deallocate(block, 4096, stream);
        void* again = second_pool.allocate(4096, other_stream_on_1);
        second_pool.deallocate(again, 4096, other_stream_on_1);
    }
    // An array keeps working from another device's context.
    EXPECT_EQ(on_first.astype(kiln::int32).get<std::int32_t>(),
              (std::vector<std::int32_t>{0, 1, 2, 3}));
}

// An illegal address in a kernel surfaces at the next synchronizing call as a DeviceFault naming
// the kernel launched last. The fault loses the context, so a later, unrelated call says that,
// instead of failing with the fault's own vendor error. It runs in a fresh process (death-test
// re-execution).
TEST(DeviceDeathTest, AsynchronousFaultNamesTheKernelAndLaterCallsSayTheContextIsLost) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_ON_HOST(kiln::test::wild_write);
    KILN_SKIP_UNDER_SANITIZER(kiln::test::death_test);
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            const int device = kiln::Device::current().id();
            try {
                TestKernels kernels;
                kiln::Stream stream;
                kernels.write_through(stream, reinterpret_cast<int*>(0x10));
                stream.synchronize();
            } catch (const kiln::DeviceFault& e) {
                std::fprintf(stderr, "first: %s\n", e.what());
                if (e.device() != device) {
                    std::_Exit(4);
                }
            }
            try {
                (void)kiln::zeros({1000}).get<double>();
            } catch (const kiln::DeviceFault& e) {
                std::fprintf(stderr, "later: %s\n", e.what());
                std::_Exit(3);
            }
            std::_Exit(0);
        },
        testing::ExitedWithCode(3),
        "first: kiln: device [0-9]+ faulted: .*seen by [a-zA-Z]*StreamSynchronize; the last kernel "
        "launched there was `write_through`.*restart the process.*"
        "later: kiln: [a-zA-Z]+ failed: the [A-Z]+ context of device [0-9]+ was lost after a "
        "kernel faulted .*`write_through`.*; restart the process");
}

}  // namespace
