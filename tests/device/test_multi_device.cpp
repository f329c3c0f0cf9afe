// Several devices in one process: peer access, copies between devices (to_device, copyto), and a
// kernel given another device's array. Two GPUs run them on a GPU backend; the host backend runs
// them everywhere with two devices that share the CPU (KILN_HOST_DEVICES=2, set by the tests'
// main), so CI checks the logic.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/expect_error.hpp"
#include "tests/support/host_devices_apart.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using kiln::Device;
using kiln::DeviceGuard;
using kiln::ndarray;
using kiln::test::expect_error_naming;
using kiln::test::HostDevicesApart;

// 0, 1, 2, ... over rows x columns, as float64.
ndarray grid(std::int64_t rows, std::int64_t columns) {
    return kiln::arange(0.0, static_cast<double>(rows * columns), 1.0, kiln::float64)
        .reshape({rows, columns});
}

TEST(MultiDevice, ADeviceIsNoPeerOfItself) {
    KILN_REQUIRE_DEVICE();
    const Device self = Device::current();
    EXPECT_FALSE(self.can_access_peer(self));
    expect_error_naming([&] { self.enable_peer_access(self); },
                        {"enable_peer_access", "same device"});
    // Copying to its own device is the array itself.
    const ndarray x = grid(3, 4);
    const ndarray same = x.to_device(self);
    EXPECT_EQ(same.data(), x.data());
}

// A copy between devices that can reach each other enables peer access and goes device to device;
// between devices that cannot (two host devices declared apart) the driver stages it.
TEST(MultiDevice, CopiesBetweenDevicesWithAndWithoutPeerAccess) {
    KILN_REQUIRE_TWO_DEVICES();
    const Device first(0);
    const Device second(1);
    const DeviceGuard on_first(first);
    const ndarray whole = grid(6, 8);
    // A strided view, so the source is packed on its own device first.
    const ndarray view = whole[{kiln::Slice{.step = 2}, kiln::Slice{.start = 1, .step = 3}}];
    const std::vector<double> want = view.get<double>();
    for (const bool apart : {true, false}) {
        SCOPED_TRACE(apart ? "devices declared apart" : "devices that may reach each other");
        std::optional<HostDevicesApart> declared;
        if (apart) {
            declared.emplace();
        } else if (second.can_access_peer(first)) {
            second.enable_peer_access(first);
            second.enable_peer_access(first);  // again: no error
        }
        const ndarray moved = view.to_device(second);
        EXPECT_EQ(moved.device(), 1);
        EXPECT_EQ(moved.shape(), view.shape());
        EXPECT_EQ(moved.get<double>(), want);

        // copyto on device 1 from device 0, broadcasting a row and casting int32 to float32.
        const ndarray row = kiln::arange(std::int64_t{0}, 5, 1, kiln::int32);
        const DeviceGuard on_second(second);
        const ndarray dst = kiln::zeros({3, 5}, kiln::float32);
        kiln::copyto(dst, row);
        const auto got = dst.get<float>();
        for (std::size_t i = 0; i < got.size(); ++i) {
            ASSERT_EQ(got[i], static_cast<float>(i % 5)) << i;
        }
        // And back to device 0.
        const ndarray back = moved.to_device(first);
        EXPECT_EQ(back.device(), 0);
        EXPECT_EQ(back.get<double>(), want);
    }
}

// Zero-size, 0-d and broadcast sources, and a source whose stream is gone before its copy is
// read.
TEST(MultiDevice, EdgeCasesOfCopiesBetweenDevices) {
    KILN_REQUIRE_TWO_DEVICES();
    const Device first(0);
    const Device second(1);
    const DeviceGuard on_first(first);
    expect_error_naming([] { (void)grid(1, 1).to_device(Device(kiln::device_count())); },
                        {std::to_string(kiln::device_count())});
    const ndarray empty = kiln::zeros({0, 3}, kiln::float32);
    const ndarray moved_empty = empty.to_device(second);
    EXPECT_EQ(moved_empty.device(), 1);
    EXPECT_EQ(moved_empty.shape(), (kiln::Shape{0, 3}));

    const ndarray scalar = kiln::full({}, 7.5);
    const ndarray moved_scalar = scalar.to_device(second);
    EXPECT_EQ(moved_scalar.ndim(), 0);
    EXPECT_EQ(moved_scalar.get<double>(), std::vector<double>{7.5});

    // A broadcast view (stride 0) is packed on its own device first.
    const ndarray row = kiln::arange(std::int64_t{0}, 4, 1, kiln::int64);
    const ndarray wide = kiln::broadcast_to(row, {3, 4});
    const auto moved_wide = wide.to_device(second).get<std::int64_t>();
    for (std::size_t i = 0; i < moved_wide.size(); ++i) {
        ASSERT_EQ(moved_wide[i], static_cast<std::int64_t>(i % 4)) << i;
    }

    // The source lives on a stream of device 1 that, with the source, is gone before the copy on
    // device 0 is read.
    ndarray kept;
    {
        const DeviceGuard on_second(second);
        const kiln::Stream stream(true);
        const kiln::StreamGuard on_stream(stream);
        kept = kiln::arange(0.0, 16.0, 1.0, kiln::float64).to_device(first);
    }
    EXPECT_EQ(kept.device(), 0);
    EXPECT_EQ(kept.get<double>()[15], 15.0);
}

// Threads on different devices at once, each computing on its own and copying to the other: every
// result, and every array's device, is its thread's.
TEST(MultiDevice, ThreadsOnDifferentDevicesAtOnce) {
    KILN_REQUIRE_TWO_DEVICES();
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    threads.reserve(2);
    for (int d = 0; d < 2; ++d) {
        threads.emplace_back([d, &wrong] {
            try {
                const DeviceGuard on(Device{d});
                for (int i = 0; i < 20; ++i) {
                    const ndarray x = kiln::arange(0.0, 1000.0, 1.0, kiln::float64) * (d + 1) + i;
                    const double total = kiln::sum(x).get<double>()[0];
                    const ndarray there = x.to_device(Device{1 - d});
                    const bool right = x.device() == d && there.device() == 1 - d &&
                                       total == (d + 1) * 499'500.0 + 1000.0 * i &&
                                       there.get<double>()[999] == (d + 1) * 999.0 + i;
                    wrong += right ? 0 : 1;
                }
            } catch (const kiln::Error& e) {
                ADD_FAILURE() << "device " << d << ": " << e.what();
                ++wrong;
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
