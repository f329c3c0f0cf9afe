// kiln::distributed across two processes, bootstrapped from MPI (from_mpi): every operation
// against values the host computes for both ranks, and a rank that stays away does not hang the
// other. Run with `mpirun -np 2`: on a GPU backend on a machine with two GPUs (NCCL, RCCL), on the
// host backend anywhere (MPI itself). With fewer ranks or GPUs, or without NCCL, every test skips
// and says why.
#include "tests/support/collective_arrays.hpp"

#include <kiln/distributed/mpi.hpp>
#include <kiln/kiln.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace {

using kiln::distributed::Communicator;
using kiln::distributed::ReduceOp;
using kiln::test::rank_values;

constexpr std::size_t count = 1027;
constexpr int ranks = 2;

int world_rank() {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

// The world's communicator, made once, or why there is none (the same on every rank).
struct World {
    std::optional<Communicator> comm;
    std::string missing;
};

World& world() {
    static World w = [] {
        World made;
        int size = 0;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        if (size != ranks) {
            made.missing =
                "run under mpirun -np 2 (this run has " + std::to_string(size) + " rank(s))";
            return made;
        }
        try {
            made.comm.emplace(kiln::distributed::from_mpi(MPI_COMM_WORLD));
        } catch (const kiln::NoDevice& e) {
            made.missing = e.what();
        }
        return made;
    }();
    return w;
}

#define KILN_REQUIRE_TWO_RANKS()  \
    if (!world().missing.empty()) \
    GTEST_SKIP() << world().missing

template <class T>
kiln::ndarray device_values(int rank, std::size_t n = count) {
    return kiln::test::device_values<T>(rank, n);
}

template <class T, class Expected>
void expect_elements(const kiln::ndarray& array, std::size_t n, Expected expected,
                     const std::string& what) {
    kiln::test::expect_elements<T>(array, n, expected,
                                   what + " on rank " + std::to_string(world_rank()));
}

template <class T>
void all_reduce_every_operator(const Communicator& comm) {
    const std::string dtype(kiln::name(kiln::dtype_of<T>));
    for (ReduceOp op : kiln::test::reduce_ops<T>()) {
        const auto expected = [op](std::size_t i) {
            return kiln::test::reduced_value<T>(i, ranks, op);
        };
        const kiln::ndarray in = device_values<T>(comm.rank());
        const kiln::ndarray out = device_values<T>(3);
        comm.all_reduce(in, out, op);
        const kiln::ndarray in_out = device_values<T>(comm.rank());
        comm.all_reduce(in_out, op);
        comm.synchronize();
        expect_elements<T>(out, count, expected, "all_reduce " + dtype);
        expect_elements<T>(in_out, count, expected, "all_reduce in place " + dtype);
    }
}

TEST(TwoRanks, AllReduceEveryDtypeAndOperator) {
    KILN_REQUIRE_TWO_RANKS();
    const Communicator& comm = *world().comm;
    EXPECT_EQ(comm.size(), ranks);
    EXPECT_EQ(comm.rank(), world_rank());
    kiln::test::for_each_reduced_type([&]<class T>() { all_reduce_every_operator<T>(comm); });
}

TEST(TwoRanks, RootedOperations) {
    KILN_REQUIRE_TWO_RANKS();
    const Communicator& comm = *world().comm;
    const int root = 1;
    const kiln::ndarray in = device_values<double>(comm.rank());
    const kiln::ndarray out = device_values<double>(3);
    comm.reduce(in, comm.rank() == root ? out : kiln::ndarray(), root, ReduceOp::max);
    const kiln::ndarray shared = device_values<std::int16_t>(comm.rank());
    comm.broadcast(shared, root);
    comm.synchronize();
    if (comm.rank() == root) {
        expect_elements<double>(
            out, count,
            [](std::size_t i) {
                return kiln::test::reduced_value<double>(i, ranks, ReduceOp::max);
            },
            "reduce to rank 1");
    }
    expect_elements<std::int16_t>(
        shared, count, [](std::size_t i) { return kiln::test::rank_value<std::int16_t>(i, root); },
        "broadcast from rank 1");
}

TEST(TwoRanks, GatherAndScatter) {
    KILN_REQUIRE_TWO_RANKS();
    const Communicator& comm = *world().comm;
    const kiln::ndarray mine = device_values<std::complex<float>>(comm.rank());
    const kiln::ndarray gathered =
        kiln::zeros({ranks, static_cast<std::int64_t>(count)}, kiln::complex64);
    comm.all_gather(mine, gathered);

    // Each rank's in holds 2 x 4 values; rank r gets block r of the sum.
    const std::size_t part = 4;
    const kiln::ndarray whole = device_values<std::int32_t>(comm.rank(), part * ranks);
    const kiln::ndarray block = kiln::zeros({static_cast<std::int64_t>(part)}, kiln::int32);
    comm.reduce_scatter(whole, block, ReduceOp::sum);
    comm.synchronize();

    const auto all = gathered.get<std::complex<float>>();
    for (int r = 0; r < ranks; ++r) {
        for (std::size_t i = 0; i < count; ++i) {
            ASSERT_EQ(all[static_cast<std::size_t>(r) * count + i],
                      kiln::test::rank_value<std::complex<float>>(i, r))
                << "all_gather: rank " << r << "'s element " << i;
        }
    }
    const std::size_t offset = part * static_cast<std::size_t>(comm.rank());
    expect_elements<std::int32_t>(
        block, part,
        [offset](std::size_t i) {
            return kiln::test::reduced_value<std::int32_t>(offset + i, ranks, ReduceOp::sum);
        },
        "reduce_scatter");
}

TEST(TwoRanks, SendAndReceiveAtOnceInAGroup) {
    KILN_REQUIRE_TWO_RANKS();
    const Communicator& comm = *world().comm;
    const int peer = 1 - comm.rank();
    const kiln::ndarray mine = device_values<std::uint64_t>(comm.rank());
    const kiln::ndarray theirs = device_values<std::uint64_t>(3);
    comm.group([&] {
        comm.send(mine, peer);
        comm.recv(theirs, peer);
    });
    comm.synchronize();
    expect_elements<std::uint64_t>(
        theirs, count,
        [peer](std::size_t i) { return kiln::test::rank_value<std::uint64_t>(i, peer); }, "recv");
}

// In place as NCCL defines it: all_gather's `in` is this rank's block of `out`, and
// reduce_scatter's `out` is this rank's block of `in`.
TEST(TwoRanks, InPlaceGatherAndScatter) {
    KILN_REQUIRE_TWO_RANKS();
    const Communicator& comm = *world().comm;
    const auto n = static_cast<std::int64_t>(count);
    const kiln::ndarray gathered = kiln::zeros({ranks, n}, kiln::float64);
    kiln::ndarray mine = gathered[{comm.rank()}];
    const auto values = kiln::test::rank_values<double>(count, comm.rank());
    mine.set(std::span<const double>(values));
    comm.all_gather(mine, gathered);

    const kiln::ndarray whole = device_values<float>(comm.rank(), count * ranks);
    const kiln::ndarray block =
        whole[{kiln::Slice{.start = comm.rank() * n, .stop = (comm.rank() + 1) * n}}];
    comm.reduce_scatter(whole, block, ReduceOp::max);
    comm.synchronize();

    const auto all = gathered.get<double>();
    for (int r = 0; r < ranks; ++r) {
        for (std::size_t i = 0; i < count; ++i) {
            ASSERT_EQ(all[static_cast<std::size_t>(r) * count + i],
                      kiln::test::rank_value<double>(i, r))
                << "all_gather in place: rank " << r << "'s element " << i;
        }
    }
    const std::size_t offset = count * static_cast<std::size_t>(comm.rank());
    expect_elements<float>(
        block, count,
        [offset](std::size_t i) {
            return kiln::test::reduced_value<float>(offset + i, ranks, ReduceOp::max);
        },
        "reduce_scatter in place");
}

// A group's calls on two streams: each stream's earlier work comes before them, and its later
// work after them.
TEST(TwoRanks, GroupOverTwoStreamsKeepsEachStreamsOrder) {
    KILN_REQUIRE_TWO_RANKS();
    const Communicator& comm = *world().comm;
    const int peer = 1 - comm.rank();
    const kiln::Stream first(true);
    const kiln::Stream second(true);
    kiln::ndarray mine = kiln::zeros({static_cast<std::int64_t>(count)}, kiln::int64);
    kiln::ndarray theirs;
    {
        const kiln::StreamGuard on_second(second);
        mine += device_values<std::int64_t>(comm.rank());  // queued on `second`, before the send
        theirs = kiln::zeros({static_cast<std::int64_t>(count)}, kiln::int64);
    }
    comm.group([&] {
        comm.recv(theirs, peer, first);
        comm.send(mine, peer, second);
    });
    {
        const kiln::StreamGuard on_second(second);
        theirs *= 2;  // after the receive, though it ran on `first`
    }
    comm.synchronize(second);
    expect_elements<std::int64_t>(
        theirs, count,
        [peer](std::size_t i) { return 2 * kiln::test::rank_value<std::int64_t>(i, peer); },
        "recv on one stream, doubled on the other");
}

// On the host backend, ranks in several processes find each other through MPI only: an id made
// in another process is refused, naming from_mpi (ranks of one process meet through the id).
TEST(TwoRanks, HostCommunicatorsComeFromMpi) {
    KILN_REQUIRE_TWO_RANKS();
    if (kiln::active_backend() != kiln::BackendKind::host) {
        GTEST_SKIP() << "a GPU backend's ranks meet through the id (NCCL)";
    }
    kiln::distributed::UniqueId id;
    if (world_rank() == 0) {
        id = Communicator::unique_id();
    }
    MPI_Bcast(id.bytes.data(), static_cast<int>(id.bytes.size()), MPI_BYTE, 0, MPI_COMM_WORLD);
    if (world_rank() == 1) {
        try {
            const Communicator joined(id, 1, ranks);
            ADD_FAILURE() << "a host communicator joined another process's id without MPI";
        } catch (const kiln::Error& e) {
            EXPECT_NE(std::string(e.what()).find("from_mpi"), std::string::npos) << e.what();
        }
    }
}

// Rank 1 stays away from an all_reduce: rank 0 gives up after its timeout, aborting, and names
// the operation; nobody waits forever. Run last: it needs its own communicators.
TEST(TwoRanks, AnAbsentRankDoesNotHangTheOther) {
    KILN_REQUIRE_TWO_RANKS();
    Communicator comm = kiln::distributed::from_mpi(MPI_COMM_WORLD, std::chrono::seconds(20));
    comm.set_timeout(std::chrono::seconds(2));
    const kiln::ndarray a = device_values<float>(comm.rank());
    if (comm.rank() == 0) {
        const auto start = std::chrono::steady_clock::now();
        try {
            // NCCL connects lazily: the call itself may be the one that waits for the peer.
            comm.all_reduce(a);
            comm.synchronize();
            ADD_FAILURE() << "an all_reduce without its peer completed";
        } catch (const kiln::CommunicatorError& e) {
            EXPECT_TRUE(e.operation() == "all_reduce" ||
                        e.operation() == "synchronize after all_reduce")
                << e.what();
            EXPECT_EQ(e.rank(), 0);
            EXPECT_EQ(e.size(), ranks);
        }
        EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
        EXPECT_TRUE(comm.aborted());
    } else {
        comm.abort();  // rank 0's communicator is gone: nothing to finalize with
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
