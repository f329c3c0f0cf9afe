// kiln::distributed without a device: how dtypes and operators travel through NCCL, the argument
// checks and their messages, the wait that never hangs, and CommunicatorError.
#include "core/distributed/collective_checks.hpp"
#include "core/distributed/progress_wait.hpp"
#include "core/distributed/wire_call.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/distributed/communicator.hpp>
#include <kiln/error.hpp>
#include <kiln/ndarray.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace {

using kiln::DType;
using kiln::detail::WireType;
using kiln::distributed::ReduceOp;
using kiln::test::expect_error;

// An array description without memory: enough for the checks, which read no element.
kiln::ndarray fake(DType dtype, kiln::Shape shape, int device = 0) {
    kiln::Strides strides(shape.size());
    auto step = static_cast<std::int64_t>(kiln::itemsize(dtype));
    for (std::size_t i = shape.size(); i-- > 0;) {
        strides[i] = step;
        step *= shape[i];
    }
    return {nullptr, dtype, std::move(shape), std::move(strides), 0, device};
}

TEST(CommunicatorWire, NativeTypesReduceAsThemselves) {
    const std::pair<DType, WireType> natives[] = {
        {DType::int8, WireType::int8},       {DType::uint8, WireType::uint8},
        {DType::int32, WireType::int32},     {DType::uint32, WireType::uint32},
        {DType::int64, WireType::int64},     {DType::uint64, WireType::uint64},
        {DType::float16, WireType::float16}, {DType::float32, WireType::float32},
        {DType::float64, WireType::float64}};
    for (const auto& [dtype, wire] : natives) {
        for (ReduceOp op :
             {ReduceOp::sum, ReduceOp::prod, ReduceOp::max, ReduceOp::min, ReduceOp::avg}) {
            const auto call = kiln::detail::reduction_wire("all_reduce", dtype, 7, op);
            EXPECT_EQ(call.type, wire) << kiln::name(dtype);
            EXPECT_EQ(call.count, 7U);
            EXPECT_EQ(call.op, op);
        }
    }
}

TEST(CommunicatorWire, BoolIsAnOrOrAnAndOverBytes) {
    const std::pair<ReduceOp, ReduceOp> ops[] = {{ReduceOp::sum, ReduceOp::max},
                                                 {ReduceOp::max, ReduceOp::max},
                                                 {ReduceOp::prod, ReduceOp::min},
                                                 {ReduceOp::min, ReduceOp::min}};
    for (const auto& [asked, run] : ops) {
        const auto call = kiln::detail::reduction_wire("all_reduce", DType::bool_, 5, asked);
        EXPECT_EQ(call.type, WireType::uint8);
        EXPECT_EQ(call.count, 5U);
        EXPECT_EQ(call.op, run) << kiln::detail::to_string(asked);
    }
    expect_error<kiln::TypeError>(
        [] { (void)kiln::detail::reduction_wire("all_reduce", DType::bool_, 5, ReduceOp::avg); },
        "kiln: Communicator.all_reduce: cannot reduce bool with avg: a bool array has no average "
        "(cast it to a number type)");
}

TEST(CommunicatorWire, ComplexIsPairsOfRealsForSumAndAvgOnly) {
    for (ReduceOp op : {ReduceOp::sum, ReduceOp::avg}) {
        const auto c64 = kiln::detail::reduction_wire("reduce", DType::complex64, 3, op);
        EXPECT_EQ(c64.type, WireType::float32);
        EXPECT_EQ(c64.count, 6U);
        EXPECT_EQ(c64.op, op);
        const auto c128 = kiln::detail::reduction_wire("reduce", DType::complex128, 3, op);
        EXPECT_EQ(c128.type, WireType::float64);
        EXPECT_EQ(c128.count, 6U);
    }
    for (ReduceOp op : {ReduceOp::prod, ReduceOp::max, ReduceOp::min}) {
        EXPECT_THROW((void)kiln::detail::reduction_wire("reduce", DType::complex128, 3, op),
                     kiln::TypeError);
    }
    expect_error<kiln::TypeError>(
        [] {
            (void)kiln::detail::reduction_wire("reduce_scatter", DType::complex64, 3,
                                               ReduceOp::max);
        },
        "kiln: Communicator.reduce_scatter: cannot reduce complex64 with max: complex numbers "
        "are reduced as pairs of reals, which only sum and avg respect");
}

TEST(CommunicatorWire, SixteenBitIntegersCannotBeReducedButMove) {
    for (DType dtype : {DType::int16, DType::uint16}) {
        EXPECT_THROW((void)kiln::detail::reduction_wire("all_reduce", dtype, 4, ReduceOp::sum),
                     kiln::TypeError);
        const auto moved = kiln::detail::transfer_wire(dtype, 4);
        EXPECT_EQ(moved.type, WireType::uint8);
        EXPECT_EQ(moved.count, 8U);
    }
    expect_error<kiln::TypeError>(
        [] { (void)kiln::detail::reduction_wire("all_reduce", DType::uint16, 4, ReduceOp::min); },
        "kiln: Communicator.all_reduce: cannot reduce uint16 with min: NCCL and RCCL have no "
        "16-bit integer type (cast to int32 first)");
}

TEST(CommunicatorWire, TransfersMoveBytes) {
    EXPECT_EQ(kiln::detail::transfer_wire(DType::complex128, 3).count, 48U);
    EXPECT_EQ(kiln::detail::transfer_wire(DType::bool_, 3).count, 3U);
    EXPECT_EQ(kiln::detail::transfer_wire(DType::float64, 0).count, 0U);
    expect_error<kiln::ValueError>(
        [] {
            (void)kiln::detail::reduction_wire("all_reduce", DType::float32, 1,
                                               static_cast<ReduceOp>(9));
        },
        "kiln: Communicator: ReduceOp 9 is not one of sum, prod, max, min, avg");
}

TEST(CommunicatorChecks, DeviceAndContiguity) {
    EXPECT_NO_THROW(
        kiln::detail::check_buffer("all_reduce", "in", fake(DType::float32, {4, 3}), 0));
    expect_error<kiln::ValueError>(
        [] { kiln::detail::check_buffer("broadcast", "out", fake(DType::float32, {4}, 1), 0); },
        "kiln: Communicator.broadcast: argument 'out' is on device 1 but the communicator is on "
        "device 0");
    expect_error<kiln::ValueError>(
        [] {
            kiln::detail::check_buffer("all_gather", "in", fake(DType::float32, {4, 3}).transpose(),
                                       0);
        },
        "kiln: Communicator.all_gather: argument 'in' must be C-contiguous (the library sees one "
        "flat buffer; copy() makes a contiguous array)");
}

TEST(CommunicatorChecks, OutMatchesIn) {
    EXPECT_NO_THROW(kiln::detail::check_like("all_reduce", fake(DType::int32, {2, 3}),
                                             fake(DType::int32, {2, 3})));
    expect_error<kiln::TypeError>(
        [] {
            kiln::detail::check_like("all_reduce", fake(DType::int32, {2, 3}),
                                     fake(DType::int64, {2, 3}));
        },
        "kiln: Communicator.all_reduce: argument 'out' has dtype int64 but must have in's dtype "
        "int32");
    expect_error<kiln::ShapeError>(
        [] {
            kiln::detail::check_like("reduce", fake(DType::int32, {2, 3}), fake(DType::int32, {6}));
        },
        "kiln: Communicator.reduce: argument 'out' has shape (6,) but must have in's shape (2, "
        "3)");
}

TEST(CommunicatorChecks, GatherAndScatterCounts) {
    EXPECT_NO_THROW(kiln::detail::check_count("all_gather", "out", fake(DType::uint8, {4, 5}),
                                              fake(DType::uint8, {5}), 20, "size() x in.size()"));
    expect_error<kiln::ShapeError>(
        [] {
            kiln::detail::check_count("all_gather", "out", fake(DType::uint8, {19}),
                                      fake(DType::uint8, {5}), 20, "size() x in.size()");
        },
        "kiln: Communicator.all_gather: argument 'out' holds 19 elements but must hold size() x "
        "in.size() = 20");
    expect_error<kiln::TypeError>(
        [] {
            kiln::detail::check_count("reduce_scatter", "in", fake(DType::float64, {8}),
                                      fake(DType::float32, {4}), 8, "size() x out.size()");
        },
        "kiln: Communicator.reduce_scatter: argument 'in' has dtype float64 but must have out's "
        "dtype float32");
}

TEST(CommunicatorChecks, Ranks) {
    EXPECT_NO_THROW(kiln::detail::check_rank("send", "peer", 3, 4));
    expect_error<kiln::ValueError>([] { kiln::detail::check_rank("send", "peer", 4, 4); },
                                   "kiln: Communicator.send: argument 'peer' is 4 but must be a "
                                   "rank in [0, 4)");
    EXPECT_THROW(kiln::detail::check_rank("reduce", "root", -1, 4), kiln::ValueError);
}

// Refused before any library is looked for: these hold on a machine without NCCL or a GPU.
TEST(CommunicatorChecks, ConstructorRanks) {
    const kiln::distributed::UniqueId id{};
    expect_error<kiln::ValueError>([&] { kiln::distributed::Communicator c(id, 0, 0); },
                                   "kiln: Communicator: size is 0 but must be at least 1");
    expect_error<kiln::ValueError>([&] { kiln::distributed::Communicator c(id, 2, 2); },
                                   "kiln: Communicator: rank is 2 but must be in [0, 2)");
}

TEST(CommunicatorWait, DoneFailedAndTimedOut) {
    using namespace std::chrono_literals;
    int polls = 0;
    auto result = kiln::detail::wait_for([&] { return kiln::detail::Poll{++polls == 3, ""}; }, 10s);
    EXPECT_EQ(result.outcome, kiln::detail::WaitOutcome::done);
    EXPECT_EQ(polls, 3);

    polls = 0;
    result = kiln::detail::wait_for(
        [&] {
            return kiln::detail::Poll{false, ++polls == 2 ? "remote error" : ""};
        },
        10s);
    EXPECT_EQ(result.outcome, kiln::detail::WaitOutcome::failed);
    EXPECT_EQ(result.error, "remote error");

    polls = 0;
    const auto start = std::chrono::steady_clock::now();
    result = kiln::detail::wait_for([&] { return kiln::detail::Poll{false, (++polls, "")}; }, 30ms);
    const auto waited = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(result.outcome, kiln::detail::WaitOutcome::timed_out);
    EXPECT_GE(waited, 30ms);
    EXPECT_LT(waited, 2s);
    EXPECT_GT(polls, 5) << "the wait should poll often";

    polls = 0;
    result = kiln::detail::wait_for([&] { return kiln::detail::Poll{false, (++polls, "")}; }, 0ms);
    EXPECT_EQ(result.outcome, kiln::detail::WaitOutcome::timed_out);
    EXPECT_EQ(polls, 1);
}

TEST(CommunicatorError, NamesTheCommunicatorAndOperation) {
    const kiln::CommunicatorError error(1, 4, "all_reduce", "NCCL did not finish it");
    EXPECT_STREQ(error.what(),
                 "kiln: Communicator (rank 1 of 4): all_reduce: NCCL did not finish it");
    EXPECT_EQ(error.rank(), 1);
    EXPECT_EQ(error.size(), 4);
    EXPECT_EQ(error.operation(), "all_reduce");
}

}  // namespace
