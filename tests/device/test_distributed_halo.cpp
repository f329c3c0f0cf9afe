// Ghost rows of a distributed array (with_halo, exchange_halos) within one process: two ranks, one
// per device. The ghost rows are checked against the host data they come from, and Jacobi sweeps
// of the 5-point stencil against the same sweeps on one device's whole array, exactly.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/distributed_ranks.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace dist = kiln::distributed;
using dist::Communicator;
using dist::DistributedArray;
using kiln::ndarray;
using kiln::Slice;

using kiln::test::two_ranks;

// Distinct values, so that a ghost row taken from the wrong place shows.
std::vector<double> sample(std::int64_t rows, std::int64_t columns) {
    std::vector<double> v(static_cast<std::size_t>(rows * columns));
    for (std::size_t i = 0; i < v.size(); ++i) {
        v[i] = static_cast<double>(i) * 0.75 - static_cast<double>(i % 7);
    }
    return v;
}

// Row blocks [0, 3), [3, 5), [5, rows) on ranks 0, 1, 0: rank 0 holds two shards.
dist::IndexMap three_blocks(std::int64_t rows, std::int64_t columns) {
    return {
        {0, {{0, 3}, {0, columns}}}, {1, {{3, 5}, {0, columns}}}, {0, {{5, rows}, {0, columns}}}};
}

// Global rows [begin, end) of `values`, zeros where they fall outside the array.
std::vector<double> global_rows(const std::vector<double>& values, std::int64_t rows,
                                std::int64_t columns, std::int64_t begin, std::int64_t end) {
    std::vector<double> out;
    for (std::int64_t r = begin; r < end; ++r) {
        for (std::int64_t c = 0; c < columns; ++c) {
            out.push_back(r < 0 || r >= rows ? 0.0
                                             : values[static_cast<std::size_t>(r * columns + c)]);
        }
    }
    return out;
}

// Every local shard's padded array holds its rows and, in its ghost rows, the rows around it.
void expect_ghosts_filled(const DistributedArray& a, const std::vector<double>& values) {
    const std::int64_t rows = a.shape()[0];
    const std::int64_t columns = a.shape()[1];
    for (const dist::Shard& shard : a.local_shards()) {
        const dist::AxisRange range = a.index_map()[shard.index].ranges[0];
        EXPECT_EQ(shard.padded.get<double>(),
                  global_rows(values, rows, columns, range.begin - a.halo(), range.end + a.halo()))
            << "shard " << shard.index << ", width " << a.halo();
        EXPECT_EQ(shard.array.get<double>(),
                  global_rows(values, rows, columns, range.begin, range.end));
    }
}

TEST(DistributedHalo, GhostRowsHoldTheNeighboursRows) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const std::vector<double> values = sample(9, 4);
    for (const std::int64_t width : {1, 2}) {
        // numpy.array_split's uneven cut (5 and 4 rows), and three blocks on two ranks.
        for (const auto& map : {dist::split_index_map({9, 4}, 2), three_blocks(9, 4)}) {
            const DistributedArray a = dist::with_halo(
                dist::distributed_array(std::span<const double>(values), {9, 4}, comms, map),
                width);
            EXPECT_EQ(a.halo(), width);
            dist::exchange_halos(a);
            expect_ghosts_filled(a, values);
        }
    }
}

TEST(DistributedHalo, ExchangesOnTheGivenStreams) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const std::vector<double> values = sample(7, 3);
    const DistributedArray a =
        dist::with_halo(dist::distributed_array(std::span<const double>(values), {7, 3}, comms), 2);
    const kiln::Stream first(kiln::Device(0), true);
    const kiln::Stream second(kiln::Device(1), true);
    for (const dist::Shard& shard :
         a.local_shards()) {  // with_halo's copies, on the current streams
        const kiln::DeviceGuard guard(shard.array.device());
        kiln::synchronize(kiln::current_stream());
    }
    dist::exchange_halos(a, {first, second});
    first.synchronize();
    second.synchronize();
    expect_ghosts_filled(a, values);
}

TEST(DistributedHalo, BadWidthsAndArraysAreNamed) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const DistributedArray a = dist::zeros({7, 3}, comms);  // rows 4 and 3
    kiln::test::expect_error_naming([&] { (void)dist::with_halo(a, 0); },
                                    {"with_halo", "'width'", "at least 1"});
    kiln::test::expect_error_naming([&] { (void)dist::with_halo(a, 4); },
                                    {"with_halo", "shard 1", "3 rows", "'width'"});
    const DistributedArray columns =
        dist::zeros({4, 6}, comms, kiln::float64, dist::split_index_map({4, 6}, 2, 1));
    kiln::test::expect_error_naming([&] { (void)dist::with_halo(columns, 1); },
                                    {"with_halo", "splits axis 1", "axis 0 alone"});
    kiln::test::expect_error_naming([&] { dist::exchange_halos(a); },
                                    {"exchange_halos", "'a'", "no ghost rows"});
    const kiln::Stream one(kiln::Device(0));
    kiln::test::expect_error_naming([&] { dist::exchange_halos(dist::with_halo(a, 1), {one}); },
                                    {"exchange_halos", "'streams'", "1 streams", "2 local shards"});
}

// The 5-point stencil's new values for rows [first, last) of `p`, columns 1 .. C - 2, in one fixed
// order of operations, so that the same element sums the same way on any device.
ndarray stencil(const ndarray& p, std::int64_t first, std::int64_t last) {
    const std::int64_t c = p.shape()[1];
    const Slice inner{1, c - 1};
    return (((p[{Slice{first - 1, last - 1}, inner}] + p[{Slice{first + 1, last + 1}, inner}]) +
             p[{Slice{first, last}, Slice{0, c - 2}}]) +
            p[{Slice{first, last}, Slice{2, c}}]) *
           0.25;
}

// Rows [first, last) of `to`, columns 1 .. C - 2, set to the stencil of `from`.
void sweep(const ndarray& from, const ndarray& to, std::int64_t first, std::int64_t last) {
    if (first < last) {
        kiln::copyto(to[{Slice{first, last}, Slice{1, to.shape()[1] - 1}}],
                     stencil(from, first, last));
    }
}

TEST(DistributedHalo, JacobiSweepsMatchOneDevice) {
    KILN_REQUIRE_TWO_RANKS();
    const auto comms = two_ranks();
    const std::int64_t rows = 11;
    const std::int64_t columns = 6;
    const std::vector<double> values = sample(rows, columns);
    const int sweeps = 7;
    ndarray whole = kiln::array(values, kiln::Shape{rows, columns});
    ndarray whole_next = whole.copy();
    for (int i = 0; i < sweeps; ++i) {
        sweep(whole, whole_next, 1, rows - 1);  // the first and last rows and columns stay fixed
        std::swap(whole, whole_next);
    }
    const std::vector<double> expected = whole.get<double>();
    for (const auto& map :
         {dist::split_index_map({rows, columns}, 2), three_blocks(rows, columns)}) {
        const DistributedArray start =
            dist::distributed_array(std::span<const double>(values), {rows, columns}, comms, map);
        DistributedArray u = dist::with_halo(start, 1);
        DistributedArray next = dist::with_halo(start, 1);
        for (int i = 0; i < sweeps; ++i) {
            dist::exchange_halos(u);
            for (std::size_t s = 0; s < u.local_shards().size(); ++s) {
                const dist::AxisRange range = u.index_map()[u.local_shards()[s].index].ranges[0];
                const kiln::DeviceGuard guard(u.local_shards()[s].array.device());
                // Padded row r is global row range.begin + r - 1; global rows 0 and rows - 1
                // stay fixed.
                sweep(u.local_shards()[s].padded, next.local_shards()[s].padded,
                      std::max<std::int64_t>(range.begin, 1) - range.begin + 1,
                      std::min<std::int64_t>(range.end, rows - 1) - range.begin + 1);
            }
            std::swap(u, next);
        }
        EXPECT_EQ(u.get<double>(), expected);
    }
}

}  // namespace
