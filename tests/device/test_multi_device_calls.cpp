// Calls on several devices: a call runs on its arrays' device (or its stream's) whatever device is
// current; an array of another device is reached through peer access where the devices allow it
// and refused before any launch where they do not (CuPy's rule); events, graphs and pools belong
// to their devices. Two GPUs run these on a GPU backend; two host devices (KILN_HOST_DEVICES=2,
// set by the tests' main) run them everywhere, and there the devices can be declared unable to
// reach each other (KILN_HOST_PEER_ACCESS=0), so that the refusals run in CI.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/expect_error.hpp"
#include "tests/support/host_devices_apart.hpp"

#include <kiln/jit_kernel.hpp>
#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using kiln::Device;
using kiln::DeviceGuard;
using kiln::ndarray;
using kiln::Stream;
using kiln::test::expect_error_naming;
using kiln::test::HostDevicesApart;

KILN_JIT_KERNEL(add_one_kernel, (const double* x, double* y, long long n), {
    long long i = blockDim.x * (long long)blockIdx.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] + 1.0;
});

// What `make` returns, made with `device` current.
ndarray made_on(int device, const std::function<ndarray()>& make) {
    const DeviceGuard guard{Device(device)};
    return make();
}

// 0, 1, 2, ... (n of them) as float64 on `device`.
ndarray iota_on(int device, std::int64_t n) {
    return made_on(device,
                   [n] { return kiln::arange(0.0, static_cast<double>(n), 1.0, kiln::float64); });
}

TEST(MultiDevice, RoutinesAndKernelsRunOnTheirArraysDeviceWhileAnotherIsCurrent) {
    KILN_REQUIRE_TWO_DEVICES();
    const DeviceGuard on_first(Device(0));
    const ndarray a = iota_on(1, 12).reshape({3, 4});
    const ndarray b = made_on(1, [] {
        return kiln::arange(1.0, 13.0, 1.0, kiln::float64).reshape({4, 3});
    });

    const ndarray total = kiln::sum(a);
    EXPECT_EQ(total.device(), 1);
    EXPECT_EQ(total.get<double>(), std::vector<double>{66.0});

    // (i-th row of a) . (j-th column of b), by hand.
    const ndarray product = kiln::matmul(a, b);
    EXPECT_EQ(product.device(), 1);
    std::vector<double> want(9);
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            for (int k = 0; k < 4; ++k) {
                want[static_cast<std::size_t>((i * 3) + j)] +=
                    static_cast<double>((i * 4) + k) * static_cast<double>((k * 3) + j + 1);
            }
        }
    }
    EXPECT_EQ(product.get<double>(), want);

    const ndarray running = kiln::cumsum(a);
    EXPECT_EQ(running.device(), 1);
    EXPECT_EQ(running.get<double>()[11], 66.0);

    const ndarray affine = a * 2.0 + 1.0;
    EXPECT_EQ(affine.device(), 1);
    EXPECT_EQ(affine.get<double>()[11], 23.0);

    const auto squared_diff =
        kiln::fuse("squared_diff", [](auto x, auto y) { return (x - y) * (x - y); });
    const ndarray ones = squared_diff(a, a + 1.0);
    EXPECT_EQ(ones.device(), 1);
    EXPECT_EQ(ones.get<double>(), std::vector<double>(12, 1.0));

    const kiln::ElementwiseKernel twice("T x", "T y", "y = 2 * x", "twice");
    const ndarray doubled = twice({a});
    EXPECT_EQ(doubled.device(), 1);
    EXPECT_EQ(doubled.get<double>()[5], 10.0);

    // A raw (JIT) kernel runs where its arrays are.
    const ndarray flat = a.reshape({12});
    const ndarray plus_one = made_on(1, [] { return kiln::zeros({12}, kiln::float64); });
    add_one_kernel(kiln::Dim3{1}, kiln::Dim3{256}, flat, plus_one, std::int64_t{12});
    EXPECT_EQ(plus_one.get<double>()[11], 12.0);

    // Random numbers on a stream of device 1: there, and the same numbers as on device 0.
    const Stream second(Device(1));
    const ndarray drawn = kiln::random::normal({1000}, 0.0, 1.0, 7, kiln::float64, second);
    EXPECT_EQ(drawn.device(), 1);
    EXPECT_EQ(drawn.get<double>(), kiln::random::normal({1000}, 0.0, 1.0, 7).get<double>());

    EXPECT_EQ(Device::current().id(), 0) << "a call changed the current device";
}

TEST(MultiDevice, AnotherDevicesArrayIsReachedThroughPeerAccessOrRefused) {
    KILN_REQUIRE_TWO_DEVICES();
    const ndarray first = iota_on(0, 6);
    const ndarray second = made_on(1, [] { return kiln::full({6}, 10.0); });
    // The call runs on its first array's device, 0, and reads device 1's array there.
    if (Device(0).can_access_peer(Device(1))) {
        const ndarray sum = first + second;
        EXPECT_EQ(sum.device(), 0);
        EXPECT_EQ(sum.get<double>(), (std::vector<double>{10, 11, 12, 13, 14, 15}));
    } else {
        expect_error_naming([&] { (void)(first + second); }, {"device 1", "device 0"});
    }
}

TEST(MultiDevice, AnotherDevicesArrayIsRefusedWhereTheDevicesCannotReachEachOther) {
    KILN_REQUIRE_TWO_DEVICES();
    const HostDevicesApart apart;
    if (Device(0).can_access_peer(Device(1))) {
        GTEST_SKIP() << "these devices reach each other; CI checks the refusals on two host "
                        "devices declared apart";
    }
    const ndarray first = iota_on(0, 6);
    const ndarray second = made_on(1, [] { return kiln::full({6}, 10.0); });
    expect_error_naming([&] { (void)(first + second); }, {"'", "device 1", "device 0"});
    const kiln::ElementwiseKernel twice("T x", "T y", "y = 2 * x", "twice");
    expect_error_naming([&] { (void)twice({first, second}); }, {"twice", "'y'", "device 1"});
    const ndarray square = iota_on(0, 4).reshape({2, 2});
    const ndarray other_square = made_on(1, [] { return kiln::ones({2, 2}); });
    expect_error_naming([&] { (void)kiln::matmul(square, other_square); },
                        {"matmul", "'b'", "device 1", "device 0"});
    expect_error_naming(
        [&] { add_one_kernel(kiln::Dim3{1}, kiln::Dim3{256}, first, second, std::int64_t{6}); },
        {"add_one_kernel", "argument 2", "device 1", "device 0"});
    expect_error_naming([&] { (void)kiln::sum(second, {.stream = Stream(Device(0))}); },
                        {"sum", "device 1", "device 0"});
    expect_error_naming([&] { (void)kiln::ravel(other_square.transpose(), Stream(Device(0))); },
                        {"ravel", "'a'", "device 1", "device 0"});
    // Nothing ran: device 1's array is as it was.
    EXPECT_EQ(second.get<double>(), std::vector<double>(6, 10.0));
}

TEST(MultiDevice, OutOnAnotherDevice) {
    KILN_REQUIRE_TWO_DEVICES();
    const ndarray a = iota_on(0, 4).reshape({2, 2});
    const ndarray out = made_on(1, [] { return kiln::full({2, 2}, -1.0); });
    if (!Device(0).can_access_peer(Device(1))) {
        expect_error_naming([&] { (void)kiln::add(a, a, {.out = out}); }, {"device 1"});
    } else {
        EXPECT_EQ(kiln::add(a, a, {.out = out}).get<double>(), (std::vector<double>{0, 2, 4, 6}));
        kiln::matmul(a, a, {.out = out});
        EXPECT_EQ(out.get<double>(), (std::vector<double>{2, 3, 6, 11}));
        kiln::dot(a, a, {.out = out});
        EXPECT_EQ(out.get<double>(), (std::vector<double>{2, 3, 6, 11}));
        kiln::cumsum(a, {.axis = 1, .out = out});
        EXPECT_EQ(out.get<double>(), (std::vector<double>{0, 1, 2, 5}));
        // Device 1's own work after the calls sees what they wrote.
        EXPECT_EQ(kiln::sum(out).get<double>(), std::vector<double>{8.0});
    }
}

TEST(MultiDevice, OutOnADeviceThatCannotBeReachedIsRefused) {
    KILN_REQUIRE_TWO_DEVICES();
    const HostDevicesApart apart;
    if (Device(0).can_access_peer(Device(1))) {
        GTEST_SKIP() << "these devices reach each other; CI checks the refusals on two host "
                        "devices declared apart";
    }
    const ndarray a = iota_on(0, 4).reshape({2, 2});
    const ndarray out = made_on(1, [] { return kiln::full({2, 2}, -1.0); });
    expect_error_naming([&] { (void)kiln::add(a, a, {.out = out}); }, {"device 1", "device 0"});
    expect_error_naming([&] { (void)kiln::matmul(a, a, {.out = out}); },
                        {"matmul", "'out'", "device 1", "device 0"});
    expect_error_naming([&] { (void)kiln::dot(a, a, {.out = out}); },
                        {"matmul", "'out'", "device 1"});
    expect_error_naming([&] { (void)kiln::cumsum(a, {.axis = 1, .out = out}); },
                        {"cumsum", "'out'", "device 1", "device 0"});
    EXPECT_EQ(out.get<double>(), std::vector<double>(4, -1.0)) << "a refused call wrote out";
}

TEST(MultiDevice, ADeviceGuardRestoresTheDeviceAUseInsideChanged) {
    KILN_REQUIRE_TWO_DEVICES();
    const DeviceGuard outer(Device(0));
    {
        const DeviceGuard inner(Device(0));  // already current: sets nothing
        Device(1).use();
    }
    EXPECT_EQ(Device::current().id(), 0);
}

// A guard from a device's index, so that `DeviceGuard guard(id)` is an object, where
// `DeviceGuard guard(Device(id))` would declare a function.
TEST(MultiDevice, ADeviceGuardTakesADeviceIndex) {
    KILN_REQUIRE_TWO_DEVICES();
    const DeviceGuard outer(0);
    const int id = 1;
    {
        const DeviceGuard guard(id);
        EXPECT_EQ(Device::current().id(), 1);
        EXPECT_EQ(kiln::zeros({2}).device(), 1);
    }
    EXPECT_EQ(Device::current().id(), 0);
    expect_error_naming([] { const DeviceGuard guard(kiln::device_count()); }, {"out of range"});
}

// KILN_DEVICE moves what a thread makes without naming a device, not only Device()'s default:
// each thread starts on it. In a child process each: the variable is read once per process.
TEST(MultiDeviceDeathTest, KilnDeviceIsWhereEveryThreadStarts) {
    KILN_REQUIRE_TWO_DEVICES();
    KILN_SKIP_UNDER_SANITIZER(kiln::test::death_test);
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    setenv("KILN_DEVICE", "1", 1);  // NOLINT(concurrency-mt-unsafe): the child reads it
    EXPECT_EXIT(
        {
            const ndarray here = kiln::zeros({2});
            int there = -1;
            std::thread([&] { there = kiln::zeros({2}).device(); }).join();
            std::fprintf(stderr, "devices %d %d %d %d\n", Device().id(), Device::current().id(),
                         here.device(), there);
            std::_Exit(0);
        },
        testing::ExitedWithCode(0), "devices 1 1 1 1");
    const std::string beyond = std::to_string(kiln::device_count());
    setenv("KILN_DEVICE", beyond.c_str(), 1);  // NOLINT(concurrency-mt-unsafe)
    EXPECT_EXIT(
        {
            try {
                (void)kiln::zeros({2});
            } catch (const kiln::Error& e) {
                std::fprintf(stderr, "%s\n", e.what());
            }
            std::_Exit(0);
        },
        testing::ExitedWithCode(0), "kiln: KILN_DEVICE is " + beyond + ", but the");
    unsetenv("KILN_DEVICE");  // NOLINT(concurrency-mt-unsafe): the tests never set it otherwise
}

TEST(MultiDevice, EventsAndWaitsAcrossDevices) {
    KILN_REQUIRE_TWO_DEVICES();
    const DeviceGuard on_first(Device(0));
    // Blocking streams, so they wait for the legacy streams that make the inputs.
    const Stream first(Device(0));
    const Stream second(Device(1));
    const ndarray x = iota_on(1, 1 << 16);
    ndarray tripled;
    {
        const kiln::StreamGuard on_second(second);
        tripled = x * 3.0;
    }
    // Device 0's stream waits for device 1's work through device 1's event, then copies.
    const kiln::Event produced = second.record();
    EXPECT_EQ(produced.device(), 1);
    first.wait_event(produced);
    const ndarray here = made_on(0, [] { return kiln::zeros({1 << 16}); });
    kiln::copyto(here, tripled, {.stream = first});
    first.synchronize();
    EXPECT_EQ(here.get<double>()[(1 << 16) - 1], 3.0 * ((1 << 16) - 1));

    // An event made on device 0 and recorded on device 1's stream belongs to device 1 from then.
    kiln::Event moved;
    EXPECT_EQ(moved.device(), 0);
    moved.record(second);
    EXPECT_EQ(moved.device(), 1);
    moved.synchronize();
    EXPECT_TRUE(moved.done());

    kiln::Event start(Device(0));
    kiln::Event end(Device(1));
    start.record(first);
    end.record(second);
    start.synchronize();
    end.synchronize();
    expect_error_naming([&] { (void)kiln::elapsed_time(start, end); },
                        {"elapsed_time", "device 0", "device 1"});
}

TEST(MultiDevice, AGraphCapturedOnDeviceOne) {
    KILN_REQUIRE_TWO_DEVICES();
    const DeviceGuard on_first(Device(0));
    const Stream second(Device(1), true);
    const ndarray x = iota_on(1, 1000);
    const ndarray y = made_on(1, [] { return kiln::zeros({1000}); });
    // Made on device 1's legacy stream, which the non-blocking stream does not wait for.
    kiln::Device(1).synchronize();
    // Warm: compiling and allocating stay out of the capture.
    (void)kiln::add(y, x, {.out = y, .stream = second});
    second.synchronize();
    kiln::copyto(y, 0.0, {.stream = second});
    second.begin_capture();
    (void)kiln::add(y, x, {.out = y, .stream = second});
    const kiln::Graph graph = second.end_capture();
    EXPECT_EQ(graph.device(), 1);
    graph.launch(second);
    graph.launch(second);
    second.synchronize();
    graph.launch();  // device 1's current stream, though device 0 is current
    kiln::Device(1).synchronize();
    EXPECT_EQ(y.get<double>()[999], 3.0 * 999);
    const Stream first(Device(0), true);
    expect_error_naming([&] { graph.launch(first); }, {"Graph.launch", "device 0", "device 1"});
}

TEST(MultiDevice, OneDevicesPoolRunsOutWhileTheOtherKeepsWorking) {
    KILN_REQUIRE_TWO_DEVICES();
    kiln::MemoryPool& pool = kiln::get_default_memory_pool(0);
    pool.free_all_blocks();
    // The limit goes back as it was whatever happens here.
    const std::unique_ptr<kiln::MemoryPool, std::function<void(kiln::MemoryPool*)>> restore(
        &pool, [limit = pool.get_limit()](kiln::MemoryPool* p) { p->set_limit(limit); });
    pool.set_limit(std::size_t{1} << 20);
    constexpr std::int64_t big = std::int64_t{1} << 19;  // 4 MiB of float64
    EXPECT_THROW((void)made_on(0, [] { return kiln::ones({big}); }), kiln::OutOfMemory);
    const ndarray there = made_on(1, [] { return kiln::ones({big}); });
    EXPECT_EQ(kiln::sum(there).get<double>(), std::vector<double>{static_cast<double>(big)});
    restore.get_deleter()(&pool);
    const ndarray here = made_on(0, [] { return kiln::ones({big}); });
    EXPECT_EQ(kiln::sum(here).get<double>(), std::vector<double>{static_cast<double>(big)});
}

}  // namespace
