// kiln::distributed within one process. One device: a one-rank communicator runs every
// operation on every dtype NCCL (RCCL) carries, in place and into `out`, on the current and on
// other streams, and is checked against the host's values; a timeout aborts it. Two devices: one
// communicator per device (create_all, or one thread per device), every operation driven from one
// thread in groups and checked against closed forms; a rank that never arrives times out. The
// host backend runs them all on its two host devices (KILN_HOST_DEVICES=2, set by the tests'
// main). Skips, saying why, without the devices or without the library of collectives. Ranks in
// several processes: tests/mpi.
#include "core/distributed/wire_call.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/collective_arrays.hpp"
#include "tests/support/distributed_ranks.hpp"
#include "tests/support/expect_error.hpp"
#include "tests/support/test_kernels.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <complex>
#include <cstdint>
#include <functional>
#include <future>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace {

using kiln::Device;
using kiln::DeviceGuard;
using kiln::distributed::Communicator;
using kiln::distributed::Group;
using kiln::distributed::ReduceOp;
using kiln::test::rank_values;

constexpr std::size_t count = 1027;  // odd: a wrong element count leaves a visible tail

#define KILN_REQUIRE_COLLECTIVES()                                               \
    KILN_REQUIRE_DEVICE();                                                       \
    if (const std::string why = kiln::test::collectives_missing(); !why.empty()) \
    GTEST_SKIP() << why

Communicator one_rank() {
    return {Communicator::unique_id(), 0, 1};
}

template <class T>
kiln::ndarray device_values(int rank, const std::optional<kiln::Shape>& shape = std::nullopt) {
    return kiln::test::device_values<T>(rank, count, shape);
}

template <class T, class Expected>
void expect_elements(const kiln::ndarray& array, Expected expected, const std::string& what) {
    kiln::test::expect_elements<T>(array, count, expected, what);
}

template <class T>
void all_reduce_every_operator(const Communicator& comm) {
    const std::string dtype(kiln::name(kiln::dtype_of<T>));
    for (ReduceOp op : kiln::test::reduce_ops<T>()) {
        const std::string what = dtype + " " + std::string(kiln::detail::to_string(op));
        const auto expected = [op](std::size_t i) {
            return kiln::test::reduced_value<T>(i, 1, op);
        };
        const kiln::ndarray in = device_values<T>(0);
        const kiln::ndarray out = device_values<T>(3);  // overwritten, or the test fails
        comm.all_reduce(in, out, op);
        comm.synchronize();
        expect_elements<T>(out, expected, "all_reduce into out, " + what);
        expect_elements<T>(
            in, [](std::size_t i) { return kiln::test::rank_value<T>(i, 0); },
            "all_reduce's in, " + what);

        const kiln::ndarray in_out = device_values<T>(0);
        comm.all_reduce(in_out, op);
        comm.synchronize();
        expect_elements<T>(in_out, expected, "all_reduce in place, " + what);
    }
}

// The rooted operations, the gathers and point to point, which move every dtype.
template <class T>
void move_every_way(const Communicator& comm) {
    const std::string dtype(kiln::name(kiln::dtype_of<T>));
    const auto mine = [](std::size_t i) { return kiln::test::rank_value<T>(i, 0); };
    const kiln::ndarray in = device_values<T>(0);

    kiln::ndarray out = device_values<T>(3);
    comm.broadcast(in, out, 0);
    comm.synchronize();
    expect_elements<T>(out, mine, "broadcast " + dtype);

    out = device_values<T>(3, kiln::Shape{1, static_cast<std::int64_t>(count)});
    comm.all_gather(in, out);
    comm.synchronize();
    expect_elements<T>(out, mine, "all_gather " + dtype);

    out = device_values<T>(3);
    comm.group([&] {
        comm.send(in, 0);
        comm.recv(out, 0);
    });
    comm.synchronize();
    expect_elements<T>(out, mine, "send and recv " + dtype);

    if constexpr (!std::is_same_v<T, std::int16_t> && !std::is_same_v<T, std::uint16_t>) {
        out = device_values<T>(3);
        comm.reduce(in, out, 0, ReduceOp::sum);
        comm.synchronize();
        expect_elements<T>(out, mine, "reduce " + dtype);

        out = device_values<T>(3);
        comm.reduce_scatter(in, out, ReduceOp::sum);
        comm.synchronize();
        expect_elements<T>(out, mine, "reduce_scatter " + dtype);
    }
}

TEST(Communicator, OneRankAllReduceEveryDtypeAndOperator) {
    KILN_REQUIRE_COLLECTIVES();
    const Communicator comm = one_rank();
    EXPECT_EQ(comm.rank(), 0);
    EXPECT_EQ(comm.size(), 1);
    EXPECT_EQ(comm.device(), kiln::Device::current().id());
    EXPECT_NE(comm.native(), nullptr);
    kiln::test::for_each_reduced_type([&]<class T>() { all_reduce_every_operator<T>(comm); });
}

TEST(Communicator, OneRankMovesEveryDtype) {
    KILN_REQUIRE_COLLECTIVES();
    const Communicator comm = one_rank();
    move_every_way<bool>(comm);
    move_every_way<std::int8_t>(comm);
    move_every_way<std::int16_t>(comm);
    move_every_way<std::uint16_t>(comm);
    move_every_way<std::int32_t>(comm);
    move_every_way<std::uint64_t>(comm);
    move_every_way<kiln::half>(comm);
    move_every_way<float>(comm);
    move_every_way<double>(comm);
    move_every_way<std::complex<float>>(comm);
    move_every_way<std::complex<double>>(comm);
}

TEST(Communicator, InPlaceRootedOperationsAndGroupGuard) {
    KILN_REQUIRE_COLLECTIVES();
    const Communicator comm = one_rank();
    const auto mine = [](std::size_t i) { return kiln::test::rank_value<float>(i, 0); };
    const kiln::ndarray a = device_values<float>(0);
    comm.broadcast(a, 0);
    comm.reduce(a, 0, ReduceOp::max);
    comm.synchronize();
    expect_elements<float>(a, mine, "in-place broadcast and reduce");

    const kiln::ndarray out = device_values<float>(3);
    {
        Group group;
        comm.send(a, 0);
        comm.recv(out, 0);
        group.end();
    }
    comm.synchronize();
    expect_elements<float>(out, mine, "send and recv in a Group");
}

TEST(Communicator, RunsOnTheGivenOrTheCurrentStream) {
    KILN_REQUIRE_COLLECTIVES();
    const Communicator comm = one_rank();
    kiln::test::TestKernels kernels;
    const kiln::Stream stream(true);
    const auto expected = [](std::size_t i) {
        return kiln::test::reduced_value<double>(i, 1, ReduceOp::sum);
    };

    // Queued behind a kernel on `stream`: not finished before it.
    const kiln::ndarray in = device_values<double>(0);
    const kiln::ndarray out = device_values<double>(3);
    kernels.spin(stream, kiln::test::spin_cycles(20));
    comm.all_reduce(in, out, ReduceOp::sum, stream);
    comm.synchronize(stream);
    EXPECT_TRUE(stream.done());
    expect_elements<double>(out, expected, "all_reduce on a given stream");

    const kiln::ndarray out2 = device_values<double>(3);
    {
        const kiln::StreamGuard guard(stream);
        kernels.spin(stream, kiln::test::spin_cycles(20));
        comm.all_reduce(in, out2);
        comm.synchronize();  // the current stream: `stream`
        EXPECT_TRUE(stream.done());
    }
    expect_elements<double>(out2, expected, "all_reduce on the current stream");
}

TEST(Communicator, BadArgumentsNameTheOperationAndArgument) {
    KILN_REQUIRE_COLLECTIVES();
    const Communicator comm = one_rank();
    const kiln::ndarray matrix = kiln::zeros({4, 3}, kiln::float32);
    const auto message = [](auto call) {
        try {
            call();
        } catch (const kiln::Error& e) {
            return std::string(e.what());
        }
        return std::string("no exception");
    };
    EXPECT_EQ(message([&] { comm.all_reduce(matrix.transpose()); }),
              "kiln: Communicator.all_reduce: argument 'in' must be C-contiguous (the library "
              "sees one flat buffer; copy() makes a contiguous array)");
    EXPECT_THROW(comm.all_reduce(matrix, kiln::zeros({4, 3}, kiln::float64)), kiln::TypeError);
    EXPECT_THROW(comm.all_reduce(matrix, kiln::zeros({12}, kiln::float32)), kiln::ShapeError);
    EXPECT_THROW(comm.all_gather(matrix, kiln::zeros({13}, kiln::float32)), kiln::ShapeError);
    EXPECT_THROW(comm.broadcast(matrix, 1), kiln::ValueError);
    EXPECT_THROW(comm.all_reduce(kiln::zeros({4}, kiln::int16)), kiln::TypeError);
    EXPECT_THROW(comm.all_reduce(kiln::zeros({4}, kiln::complex64), ReduceOp::max),
                 kiln::TypeError);
    EXPECT_THROW(comm.all_reduce(kiln::zeros({4}, kiln::bool_), ReduceOp::avg), kiln::TypeError);
    EXPECT_FALSE(comm.aborted()) << "refused arguments do not touch the communicator";
}

TEST(Communicator, TimeoutAbortsAndNamesTheOperation) {
    KILN_REQUIRE_COLLECTIVES();
    Communicator comm = one_rank();
    EXPECT_EQ(comm.timeout(), std::chrono::minutes(5));
    EXPECT_THROW(comm.set_timeout(std::chrono::milliseconds(-1)), kiln::ValueError);
    comm.set_timeout(std::chrono::milliseconds(50));
    EXPECT_EQ(comm.timeout(), std::chrono::milliseconds(50));

    // The wait times out on a stream that is still busy (no NCCL kernel is queued behind the
    // spin: aborting leaves nothing of the communicator's to run).
    const kiln::ndarray a = device_values<float>(0);
    comm.all_reduce(a);
    comm.synchronize();
    kiln::test::TestKernels kernels;
    const kiln::Stream stream(true);
    kernels.spin(stream, kiln::test::spin_cycles(500));
    try {
        comm.synchronize(stream);
        ADD_FAILURE() << "synchronize did not time out";
    } catch (const kiln::CommunicatorError& e) {
        EXPECT_EQ(e.rank(), 0);
        EXPECT_EQ(e.size(), 1);
        EXPECT_EQ(e.operation(), "synchronize after all_reduce");
        EXPECT_NE(std::string(e.what()).find("the stream did not finish within 50 ms"),
                  std::string::npos)
            << e.what();
    }
    // No bound on when the throw arrives: NCCL's abort frees device memory, which waits for the
    // spin (not NCCL's work, so nothing aborts it; H100: the throw came when the spin ended). A
    // collective stuck inside NCCL is the two-rank test's case.
    EXPECT_TRUE(comm.aborted());
    EXPECT_THROW(comm.all_reduce(a), kiln::CommunicatorError);
    stream.synchronize();
}

TEST(Communicator, MovedFromIsAnError) {
    KILN_REQUIRE_COLLECTIVES();
    Communicator comm = one_rank();
    const Communicator moved(std::move(comm));
    EXPECT_EQ(moved.size(), 1);
    EXPECT_THROW((void)comm.rank(), kiln::Error);  // NOLINT(bugprone-use-after-move)
}

// A Communicator destroyed while a group it was called in is open (a misuse): the group's end
// still completes its call and frees it, then says what happened, instead of touching freed
// memory.
TEST(Communicator, DestroyedBeforeItsGroupEndsIsAnErrorAtTheEnd) {
    KILN_REQUIRE_COLLECTIVES();
    std::optional<Communicator> comm(one_rank());
    const kiln::ndarray in = device_values<float>(0);
    const kiln::ndarray out = device_values<float>(3);
    Group group;
    comm->all_reduce(in, out);
    comm.reset();
    try {
        group.end();
        ADD_FAILURE() << "expected kiln::Error";
    } catch (const kiln::Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("Group.end"), std::string::npos) << what;
        EXPECT_NE(what.find("destroyed before the group ended"), std::string::npos) << what;
    }
    kiln::Device::current().synchronize();
    expect_elements<float>(
        out, [](std::size_t i) { return kiln::test::rank_value<float>(i, 0); },
        "the destroyed communicator's all_reduce");
}

// One communicator called from several threads at once, each on its own stream: the calls run
// one at a time and every result is right.
TEST(Communicator, OneCommunicatorCalledFromSeveralThreads) {
    KILN_REQUIRE_COLLECTIVES();
    Communicator comm = one_rank();
    constexpr int threads = 4;
    constexpr int rounds = 40;
    std::vector<std::string> errors(threads);
    std::vector<std::thread> running;
    running.reserve(threads);
    for (int t = 0; t < threads; ++t) {
        running.emplace_back([&, t] {
            try {
                const kiln::Stream stream(true);
                const kiln::StreamGuard on_stream(stream);
                const kiln::ndarray in = device_values<std::int32_t>(t);
                for (int round = 0; round < rounds; ++round) {
                    const kiln::ndarray out = device_values<std::int32_t>(7);
                    comm.all_reduce(in, out, ReduceOp::sum, stream.view());
                    comm.set_timeout(comm.timeout());
                    comm.synchronize(stream.view());
                    expect_elements<std::int32_t>(
                        out,
                        [t](std::size_t i) { return kiln::test::rank_value<std::int32_t>(i, t); },
                        "thread " + std::to_string(t) + ", round " + std::to_string(round));
                    if (::testing::Test::HasFailure()) {
                        return;
                    }
                }
            } catch (const std::exception& e) {
                errors[static_cast<std::size_t>(t)] = e.what();
            }
        });
    }
    for (std::thread& thread : running) {
        thread.join();
    }
    for (int t = 0; t < threads; ++t) {
        EXPECT_EQ(errors[static_cast<std::size_t>(t)], "") << "thread " << t;
    }
    EXPECT_FALSE(comm.aborted());
}

// A call that waits holds the communicator's other callers back until it returns: while one
// thread's synchronize waits for its stream (held by a host function), another thread's
// timeout() and set_timeout() wait too. The test above races only under ThreadSanitizer; this
// one fails whenever calls on one communicator do not take turns.
TEST(Communicator, ACallThatWaitsHoldsOtherThreadsCallsBack) {
    KILN_REQUIRE_COLLECTIVES();
    Communicator comm = one_rank();
    const kiln::Stream stream(true);
    std::promise<void> release;
    const std::shared_future<void> released = release.get_future().share();
    std::atomic<bool> stream_held{false};
    stream.launch_host_func([&stream_held, released] {
        stream_held = true;
        released.wait();
    });
    while (!stream_held) {
        std::this_thread::yield();
    }
    std::thread waiter([&] { comm.synchronize(stream.view()); });
    // Time for the waiter to enter synchronize; a slower start makes this test pass, never fail.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    std::atomic<bool> other_returned{false};
    std::thread other([&] {
        comm.set_timeout(comm.timeout());
        other_returned = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_FALSE(other_returned) << "a call returned while synchronize held the communicator";
    release.set_value();
    waiter.join();
    other.join();
    EXPECT_TRUE(other_returned);
    EXPECT_FALSE(comm.aborted());
}

// ---- Two devices, one process ----

// Two devices, and the backend's library of collectives.
#define KILN_REQUIRE_TWO_COLLECTIVE_DEVICES() \
    KILN_REQUIRE_TWO_DEVICES();               \
    KILN_REQUIRE_COLLECTIVES()

constexpr std::int64_t length = 1027;

// `n` values value(i) of T, on `device`.
template <class T>
kiln::ndarray values_on(int device, const std::function<T(std::int64_t)>& value,
                        std::int64_t n = length) {
    std::vector<T> host(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        host[static_cast<std::size_t>(i)] = value(i);
    }
    const DeviceGuard guard{Device(device)};
    return kiln::array(host);
}

// Rank r's operand: arange(n) * (r + 1), as T, on device r.
template <class T>
kiln::ndarray scaled(int rank, std::int64_t n = length) {
    return values_on<T>(
        rank, [rank](std::int64_t i) { return static_cast<T>(i * (rank + 1)); }, n);
}

// An output that the operation must overwrite: -1 everywhere, on device r.
template <class T>
kiln::ndarray sentinel(int rank, std::int64_t n = length) {
    return values_on<T>(
        rank, [](std::int64_t) { return static_cast<T>(-1); }, n);
}

template <class T>
void expect_values(const kiln::ndarray& array, const std::function<T(std::int64_t)>& expected,
                   const std::string& what) {
    const auto got = array.get<T>();
    ASSERT_EQ(static_cast<std::int64_t>(got.size()), array.size()) << what;
    int wrong = 0;
    for (std::int64_t i = 0; i < array.size() && wrong < 5; ++i) {
        if (got[static_cast<std::size_t>(i)] != expected(i)) {
            ADD_FAILURE() << what << ": element " << i << " is " << got[static_cast<std::size_t>(i)]
                          << " but must be " << expected(i);
            ++wrong;
        }
    }
}

// One communicator per device, and rank r's name in messages.
std::vector<Communicator> two_devices() {
    return Communicator::create_all({0, 1});
}

std::string on_rank(int rank, const std::string& what) {
    return what + " on rank " + std::to_string(rank);
}

void synchronize_all(const std::vector<Communicator>& comms) {
    for (const auto& comm : comms) {
        comm.synchronize();
    }
}

TEST(Communicator, CreateAllPutsRankIOnDeviceI) {
    KILN_REQUIRE_TWO_COLLECTIVE_DEVICES();
    for (int current : {0, 1}) {
        const DeviceGuard guard{Device(current)};
        const auto comms = Communicator::create_all({1, 0});
        ASSERT_EQ(comms.size(), 2U);
        for (int r = 0; r < 2; ++r) {
            EXPECT_EQ(comms[r].rank(), r);
            EXPECT_EQ(comms[r].size(), 2);
            EXPECT_EQ(comms[r].device(), 1 - r);
            EXPECT_NE(comms[r].native(), nullptr);
        }
        EXPECT_EQ(Device::current().id(), current) << "create_all changed the current device";
    }
}

TEST(Communicator, AStreamOfAnotherDeviceIsRefused) {
    KILN_REQUIRE_TWO_COLLECTIVE_DEVICES();
    const auto comms = two_devices();
    const kiln::Stream other(Device(1));
    const kiln::ndarray in = scaled<float>(0);
    kiln::test::expect_error_naming([&] { comms[0].all_reduce(in, ReduceOp::sum, other); },
                                    {"Communicator.all_reduce", "device 1", "device 0"});
    kiln::test::expect_error_naming([&] { comms[0].synchronize(other); },
                                    {"Communicator.synchronize", "device 1", "device 0"});
}

TEST(Communicator, AllReduceOverTwoDevicesFromOneThread) {
    KILN_REQUIRE_TWO_COLLECTIVE_DEVICES();
    const DeviceGuard guard{Device(1)};  // the calls must leave it current
    const auto comms = two_devices();
    const std::vector<std::pair<ReduceOp, float>> cases = {
        {ReduceOp::sum, 3.0F}, {ReduceOp::max, 2.0F}, {ReduceOp::avg, 1.5F}};
    for (const auto& [op, factor] : cases) {
        const std::string name = "all_reduce " + std::string(kiln::detail::to_string(op));
        const std::vector<kiln::ndarray> in = {scaled<float>(0), scaled<float>(1)};
        const std::vector<kiln::ndarray> out = {sentinel<float>(0), sentinel<float>(1)};
        {
            Group group;
            for (int r = 0; r < 2; ++r) {
                comms[r].all_reduce(in[r], out[r], op);
            }
            group.end();
        }
        synchronize_all(comms);
        for (int r = 0; r < 2; ++r) {
            expect_values<float>(
                out[r], [f = factor](std::int64_t i) { return static_cast<float>(i) * f; },
                on_rank(r, name));
            expect_values<float>(
                in[r], [r](std::int64_t i) { return static_cast<float>(i * (r + 1)); },
                on_rank(r, name + ", its input"));
        }
    }

    // prod on integers, in place: i * 2i.
    const std::vector<kiln::ndarray> a = {scaled<std::int32_t>(0), scaled<std::int32_t>(1)};
    comms[0].group([&] {
        for (int r = 0; r < 2; ++r) {
            comms[r].all_reduce(a[r], ReduceOp::prod);
        }
    });
    synchronize_all(comms);
    for (int r = 0; r < 2; ++r) {
        expect_values<std::int32_t>(
            a[r], [](std::int64_t i) { return static_cast<std::int32_t>(2 * i * i); },
            on_rank(r, "all_reduce prod in place"));
    }
    EXPECT_EQ(Device::current().id(), 1) << "a call changed the current device";
}

TEST(Communicator, BroadcastFromEachRoot) {
    KILN_REQUIRE_TWO_COLLECTIVE_DEVICES();
    const auto comms = two_devices();
    for (int root = 0; root < 2; ++root) {
        const auto expected = [root](std::int64_t i) {
            return static_cast<double>(i * (root + 1));
        };
        // In place: only the root's values count.
        const std::vector<kiln::ndarray> a = {root == 0 ? scaled<double>(0) : sentinel<double>(0),
                                              root == 1 ? scaled<double>(1) : sentinel<double>(1)};
        // Into `out`: every rank passes its own `in`, which only the root's is read.
        const std::vector<kiln::ndarray> in = {scaled<double>(0), scaled<double>(1)};
        const std::vector<kiln::ndarray> out = {sentinel<double>(0), sentinel<double>(1)};
        {
            Group group;
            for (int r = 0; r < 2; ++r) {
                comms[r].broadcast(a[r], root);
                comms[r].broadcast(in[r], out[r], root);
            }
            group.end();
        }
        synchronize_all(comms);
        for (int r = 0; r < 2; ++r) {
            const std::string from = " from root " + std::to_string(root);
            expect_values<double>(a[r], expected, on_rank(r, "broadcast in place" + from));
            expect_values<double>(out[r], expected, on_rank(r, "broadcast into out" + from));
        }
    }
}

TEST(Communicator, AllGatherPutsTheRanksSideBySide) {
    KILN_REQUIRE_TWO_COLLECTIVE_DEVICES();
    const auto comms = two_devices();
    const std::vector<kiln::ndarray> in = {scaled<std::int64_t>(0), scaled<std::int64_t>(1)};
    std::vector<kiln::ndarray> out;
    for (int r = 0; r < 2; ++r) {
        out.push_back(sentinel<std::int64_t>(r, 2 * length).reshape({2, length}));
    }
    comms[0].group([&] {
        for (int r = 0; r < 2; ++r) {
            comms[r].all_gather(in[r], out[r]);
        }
    });
    synchronize_all(comms);
    // Block b is rank b's arange * (b + 1).
    for (int r = 0; r < 2; ++r) {
        expect_values<std::int64_t>(
            out[r], [](std::int64_t j) { return (j % length) * (j / length + 1); },
            on_rank(r, "all_gather"));
    }
}

TEST(Communicator, ReduceScatterGivesRankRBlockR) {
    KILN_REQUIRE_TWO_COLLECTIVE_DEVICES();
    const auto comms = two_devices();
    const std::vector<kiln::ndarray> in = {scaled<float>(0, 2 * length),
                                           scaled<float>(1, 2 * length)};
    const std::vector<kiln::ndarray> out = {sentinel<float>(0), sentinel<float>(1)};
    comms[0].group([&] {
        for (int r = 0; r < 2; ++r) {
            comms[r].reduce_scatter(in[r], out[r], ReduceOp::sum);
        }
    });
    synchronize_all(comms);
    // The sum is arange(2n) * 3; rank r holds its block r.
    for (int r = 0; r < 2; ++r) {
        expect_values<float>(
            out[r], [r](std::int64_t i) { return static_cast<float>((r * length + i) * 3); },
            on_rank(r, "reduce_scatter"));
    }
}

TEST(Communicator, ReduceWritesTheRootOnly) {
    KILN_REQUIRE_TWO_COLLECTIVE_DEVICES();
    const auto comms = two_devices();
    for (int root = 0; root < 2; ++root) {
        const std::vector<kiln::ndarray> in = {scaled<double>(0), scaled<double>(1)};
        const std::vector<kiln::ndarray> out = {sentinel<double>(0), sentinel<double>(1)};
        comms[0].group([&] {
            for (int r = 0; r < 2; ++r) {
                comms[r].reduce(in[r], out[r], root, ReduceOp::sum);
            }
        });
        synchronize_all(comms);
        const std::string name = "reduce to root " + std::to_string(root);
        expect_values<double>(
            out[root], [](std::int64_t i) { return static_cast<double>(i * 3); },
            on_rank(root, name));
        expect_values<double>(
            out[1 - root], [](std::int64_t) { return -1.0; },
            on_rank(1 - root, name + " (not the root: untouched)"));
    }
}

TEST(Communicator, SendAndReceiveBothWaysInOneGroup) {
    KILN_REQUIRE_TWO_COLLECTIVE_DEVICES();
    const DeviceGuard guard{Device(0)};
    const auto comms = two_devices();
    const std::vector<kiln::ndarray> mine = {scaled<std::int32_t>(0), scaled<std::int32_t>(1)};
    const std::vector<kiln::ndarray> theirs = {sentinel<std::int32_t>(0),
                                               sentinel<std::int32_t>(1)};
    {
        Group group;
        for (int r = 0; r < 2; ++r) {
            comms[r].send(mine[r], 1 - r);
            comms[r].recv(theirs[r], 1 - r);
        }
        EXPECT_THROW(comms[0].synchronize(), kiln::Error) << "inside a group nothing is queued";
        group.end();
    }
    synchronize_all(comms);
    for (int r = 0; r < 2; ++r) {
        const int peer = 1 - r;
        expect_values<std::int32_t>(
            theirs[r], [peer](std::int64_t i) { return static_cast<std::int32_t>(i * (peer + 1)); },
            on_rank(r, "recv from rank " + std::to_string(peer)));
    }
    EXPECT_FALSE(comms[0].aborted());
    EXPECT_EQ(Device::current().id(), 0);
}

// One communicator per device, each made and used by its own thread, which leaves device 0
// current: the explicit device places the rank, and the calls run on the current stream of the
// communicator's device (a stream of the thread's own; the host devices share their default
// streams, on which two ranks would queue behind each other). Each stream is busy a while before
// the all_reduce, rank 0's until well after rank 1 has queued its calls, and copies the result
// after it: a call made on another stream would copy rank 1's values before rank 0 arrives, or
// return from synchronize too early.
TEST(Communicator, OneThreadPerDeviceWithASharedId) {
    KILN_REQUIRE_TWO_COLLECTIVE_DEVICES();
    const auto id = Communicator::unique_id();
    std::vector<std::string> errors(2);
    std::vector<int> devices_seen(2, -1);
    std::array<bool, 2> stream_done{};  // not vector<bool>, whose elements share bytes
    std::vector<std::vector<float>> results(2);
    std::atomic<bool> second_queued{false};
    const auto rank_thread = [&](int r) {
        try {
            const Communicator comm(Device(r), id, r, 2);
            std::optional<kiln::Stream> stream;
            {
                const DeviceGuard on_device{Device(r)};
                stream.emplace(true);
            }
            const kiln::StreamGuard on_stream(*stream);
            const kiln::ndarray a = scaled<float>(r);
            stream->launch_host_func([r, &second_queued] {
                const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
                while (r == 0 && !second_queued && std::chrono::steady_clock::now() < until) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(r == 0 ? 300 : 50));
            });
            comm.all_reduce(a);
            const kiln::ndarray after = a.copy();  // queued on the stream, behind the all_reduce
            if (r == 1) {
                second_queued = true;
            }
            comm.synchronize();
            stream_done[r] = stream->done();
            devices_seen[r] = Device::current().id();
            results[r] = after.get<float>();
        } catch (const std::exception& e) {
            errors[r] = e.what();
        }
    };
    std::thread first(rank_thread, 0);
    std::thread second(rank_thread, 1);
    first.join();
    second.join();
    for (int r = 0; r < 2; ++r) {
        ASSERT_EQ(errors[r], "") << "rank " << r;
        EXPECT_EQ(devices_seen[r], 0) << "rank " << r << "'s thread left its device changed";
        EXPECT_TRUE(stream_done[r]) << "rank " << r << " synchronized another stream";
        ASSERT_EQ(results[r].size(), static_cast<std::size_t>(length));
        for (std::int64_t i = 0; i < length; ++i) {
            ASSERT_EQ(results[r][static_cast<std::size_t>(i)], static_cast<float>(i * 3))
                << "rank " << r << ", element " << i;
        }
    }
}

// A rank that never joins: the other gives up after its timeout, aborting, instead of waiting
// forever.
TEST(Communicator, AnAbsentRankTimesOutTheJoin) {
    KILN_REQUIRE_TWO_COLLECTIVE_DEVICES();
    const auto start = std::chrono::steady_clock::now();
    try {
        const Communicator alone(Device(1), Communicator::unique_id(), 0, 2,
                                 std::chrono::milliseconds(300));
        ADD_FAILURE() << "a communicator of two ranks was made with one";
    } catch (const kiln::CommunicatorError& e) {
        EXPECT_EQ(e.operation(), "init") << e.what();
        EXPECT_EQ(e.rank(), 0);
        EXPECT_EQ(e.size(), 2);
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start,
              kiln::test::hang_bound(std::chrono::seconds(30)));
    EXPECT_EQ(Device::current().id(), 0);
}

// Rank 1 stays away from an all_reduce: rank 0's synchronize gives up after its timeout.
TEST(Communicator, AnAbsentRankTimesOutAnAllReduce) {
    KILN_REQUIRE_TWO_COLLECTIVE_DEVICES();
    auto comms = two_devices();
    comms[0].set_timeout(std::chrono::milliseconds(300));
    const kiln::ndarray a = scaled<float>(0);
    const auto start = std::chrono::steady_clock::now();
    try {
        comms[0].all_reduce(a);
        comms[0].synchronize();
        ADD_FAILURE() << "an all_reduce without its peer completed";
    } catch (const kiln::CommunicatorError& e) {
        // NCCL connects lazily: the call itself may be the one that waits for the peer.
        EXPECT_TRUE(e.operation() == "all_reduce" ||
                    e.operation() == "synchronize after all_reduce")
            << e.what();
        EXPECT_EQ(e.rank(), 0);
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start,
              kiln::test::hang_bound(std::chrono::seconds(30)));
    EXPECT_TRUE(comms[0].aborted());
    EXPECT_THROW(comms[0].all_reduce(a), kiln::CommunicatorError);
    comms[1].abort();  // its peer is gone: nothing to finalize with
}

TEST(Communicator, CreateAllRefusesBadDevices) {
    const auto message = [](const std::vector<int>& devices) {
        try {
            (void)Communicator::create_all(devices);
        } catch (const kiln::ValueError& e) {
            return std::string(e.what());
        }
        return std::string("no ValueError");
    };
    const std::string prefix = "kiln: Communicator.create_all: argument 'devices' ";
    EXPECT_EQ(message({}), prefix + "is empty but must name at least one device");
    EXPECT_EQ(message({0, 1, 0}),
              prefix +
                  "names device 0 twice (at indices 0 and 2) but must name each device "
                  "once: NCCL forbids two ranks of a communicator on one device");
    const int count = kiln::device_count();
    const std::string range = ") but must name devices in [0, " + std::to_string(count) +
                              "): this process sees " + std::to_string(count) + " device(s)";
    EXPECT_EQ(message({-1}), prefix + "names device -1 (at index 0" + range);
    EXPECT_EQ(message({count}),
              prefix + "names device " + std::to_string(count) + " (at index 0" + range);
}

// ---- The host backend's own checks, which a GPU's NCCL leaves to a hang ----

#define KILN_REQUIRE_TWO_HOST_DEVICES()                                                        \
    if (!kiln::test::is_host())                                                                \
        GTEST_SKIP() << "the host backend's check (a GPU's devices never share a stream, and " \
                        "NCCL does not compare the ranks' calls)";                             \
    KILN_REQUIRE_TWO_DEVICES()

// Without a group, the two ranks' calls queue on the one legacy stream that the host devices
// share, the second behind the first, which waits for it: both fail at once, saying why.
// Every rank's synchronize throws CommunicatorError naming each of `parts`.
void expect_every_synchronize_fails(const std::vector<Communicator>& comms,
                                    std::initializer_list<std::string> parts) {
    for (std::size_t r = 0; r < comms.size(); ++r) {
        try {
            comms[r].synchronize();
            ADD_FAILURE() << "rank " << r << "'s all_reduce completed";
        } catch (const kiln::CommunicatorError& e) {
            for (const auto& part : parts) {
                EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
            }
        }
    }
}

TEST(Communicator, TwoRanksQueuedOnOneHostStreamFailAtOnce) {
    KILN_REQUIRE_TWO_HOST_DEVICES();
    const auto comms = two_devices();
    const std::vector<kiln::ndarray> a = {scaled<float>(0), scaled<float>(1)};
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < 2; ++r) {
        comms[r].all_reduce(a[r]);
    }
    expect_every_synchronize_fails(comms, {"ranks 0 and 1 queued collective #0 (all_reduce) on the "
                                           "legacy default stream in separate tasks",
                                           "inside one Group"});
    EXPECT_LT(std::chrono::steady_clock::now() - start,
              kiln::test::hang_bound(std::chrono::seconds(30)));
}

TEST(Communicator, RanksThatDisagreeFailOnTheHostBackend) {
    KILN_REQUIRE_TWO_HOST_DEVICES();
    const auto comms = two_devices();
    const kiln::ndarray mine = scaled<float>(0);
    const kiln::ndarray theirs = scaled<float>(1, length + 1);
    comms[0].group([&] {
        comms[0].all_reduce(mine);
        comms[1].all_reduce(theirs);
    });
    expect_every_synchronize_fails(comms, {"the ranks disagree on collective #0: rank 1 calls "
                                           "all_reduce (sum) of 1028 float32, rank 0 all_reduce "
                                           "(sum) of 1027 float32"});
}

}  // namespace
