// A Communicator from an MPI communicator: the usual start of a multi-GPU, multi-node code (one
// rank per GPU, started by mpirun or the cluster's launcher). Header-only, so that libkiln never
// depends on MPI: include it where <mpi.h> is available and link MPI (CMake: kiln::mpi, built
// when kiln's configure finds MPI; elsewhere MPI::MPI_CXX or MPI::MPI_C).
#pragma once

#include <kiln/device.hpp>
#include <kiln/distributed/communicator.hpp>
#include <kiln/error.hpp>

#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <string>

namespace kiln::distributed {

namespace detail {

inline void check_mpi(int rc, const char* call) {
    if (rc != MPI_SUCCESS) {
        std::array<char, MPI_MAX_ERROR_STRING> text{};
        int length = 0;
        MPI_Error_string(rc, text.data(), &length);
        throw Error("kiln: " + std::string(call) + " failed: " + std::string(text.data(), length));
    }
}

}  // namespace detail

// This process's rank among the ranks of `comm` that share its node
// (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)).
[[nodiscard]] inline int local_rank(MPI_Comm comm) {
    MPI_Comm node = MPI_COMM_NULL;
    detail::check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
                      "MPI_Comm_split_type");
    int rank = 0;
    const int rc = MPI_Comm_rank(node, &rank);
    MPI_Comm_free(&node);
    detail::check_mpi(rc, "MPI_Comm_rank");
    return rank;
}

// A communicator over every rank of `comm`, called by all of them. Each rank makes the device
// numbered by its local rank current (Device(local_rank(comm)).use()): one GPU per rank, as
// NCCL requires. Rank 0 makes the unique id and MPI_Bcast gives it to the others. When a rank
// has no device of its own, or rank 0 cannot make an id (no NCCL), every rank throws NoDevice:
// none is left waiting.
[[nodiscard]] inline Communicator from_mpi(
    MPI_Comm comm, std::chrono::milliseconds timeout = Communicator::default_timeout) {
    int rank = 0;
    int size = 0;
    detail::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
    detail::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");

    // Every rank needs a device of its own; if one lacks it, all of them throw.
    const int local = local_rank(comm);
    const int devices = device_count();
    int all_placed = local < devices ? 1 : 0;
    detail::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &all_placed, 1, MPI_INT, MPI_MIN, comm),
                      "MPI_Allreduce");
    if (local >= devices) {
        throw NoDevice("kiln: from_mpi: rank " + std::to_string(rank) + " is local rank " +
                       std::to_string(local) + " of its node, which has " +
                       std::to_string(devices) + " device(s): NCCL needs one GPU per rank" +
                       (devices == 0 ? " (" + no_device_reason() + ")" : std::string()));
    }
    if (all_placed == 0) {
        throw NoDevice(
            "kiln: from_mpi: another rank has no device of its own: NCCL needs one "
            "GPU per rank");
    }
    Device(local).use();

    // The id, led by a byte that says whether rank 0 made one, and rank 0's error otherwise.
    constexpr std::size_t error_bytes = 512;
    std::array<char, 1 + sizeof(UniqueId) + error_bytes> message{};
    if (rank == 0) {
        try {
            const UniqueId id = Communicator::unique_id();
            message[0] = 1;
            std::copy_n(reinterpret_cast<const char*>(id.bytes.data()), sizeof(id), &message[1]);
        } catch (const Error& e) {
            const std::string what = e.what();
            std::copy_n(what.data(), std::min(what.size(), error_bytes - 1),
                        &message[1 + sizeof(UniqueId)]);
        }
    }
    detail::check_mpi(
        MPI_Bcast(message.data(), static_cast<int>(message.size()), MPI_BYTE, 0, comm),
        "MPI_Bcast");
    if (message[0] != 1) {
        throw NoDevice("kiln: from_mpi: rank 0 could not make a unique id: " +
                       std::string(&message[1 + sizeof(UniqueId)]));
    }
    UniqueId id;
    std::copy_n(&message[1], sizeof(id), reinterpret_cast<char*>(id.bytes.data()));
    return {id, rank, size, timeout};
}

}  // namespace kiln::distributed
