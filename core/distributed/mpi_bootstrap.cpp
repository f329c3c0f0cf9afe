// kiln/distributed/mpi.hpp: communicators from MPI. Built into libkiln_mpi, which links MPI.
#include "mpi_bootstrap.hpp"

#include <kiln/backend.hpp>
#include <kiln/device.hpp>
#include <kiln/distributed/mpi.hpp>
#include <kiln/error.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <string>

namespace kiln::detail {

namespace {

// Filled before main by the backends built into libkiln_mpi; only read afterwards.
std::map<BackendKind, MpiCommunicatorMaker>& mpi_communicator_makers() {
    static std::map<BackendKind, MpiCommunicatorMaker> makers;
    return makers;
}

}  // namespace

bool register_mpi_communicator_maker(BackendKind backend, MpiCommunicatorMaker maker) {
    mpi_communicator_makers()[backend] = maker;
    return true;
}

void check_mpi(int rc, const char* call) {
    if (rc != MPI_SUCCESS) {
        std::array<char, MPI_MAX_ERROR_STRING> text{};
        int length = 0;
        MPI_Error_string(rc, text.data(), &length);
        throw Error("kiln: " + std::string(call) + " failed: " + std::string(text.data(), length));
    }
}

}  // namespace kiln::detail

namespace kiln::distributed {

using detail::check_mpi;

int local_rank(MPI_Comm comm) {
    MPI_Comm node = MPI_COMM_NULL;
    check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
              "MPI_Comm_split_type");
    int rank = 0;
    const int rc = MPI_Comm_rank(node, &rank);
    MPI_Comm_free(&node);
    check_mpi(rc, "MPI_Comm_rank");
    return rank;
}

Communicator from_mpi(MPI_Comm comm, std::chrono::milliseconds timeout) {
    int rank = 0;
    int size = 0;
    check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
    check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
    // A backend whose collectives run over MPI (the host) makes its own; GPU ones go on below.
    const auto& makers = detail::mpi_communicator_makers();
    if (const auto maker = makers.find(active_backend()); maker != makers.end()) {
        return maker->second(comm, rank, size, timeout);
    }

    // Every rank needs a device of its own; if one lacks it, all of them throw.
    const int local = local_rank(comm);
    const int devices = device_count();
    int all_placed = local < devices ? 1 : 0;
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &all_placed, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
    if (local >= devices) {
        throw NoDevice("kiln: from_mpi: rank " + std::to_string(rank) + " is local rank " +
                       std::to_string(local) + " of its node, which has " +
                       std::to_string(devices) + " device(s): NCCL needs one GPU per rank" +
                       (devices == 0 ? " (" + no_device_reason() + ")" : std::string()));
    }
    if (all_placed == 0) {
        throw NoDevice(
            "kiln: from_mpi: another rank has no device of its own: NCCL needs one GPU per rank");
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
    check_mpi(MPI_Bcast(message.data(), static_cast<int>(message.size()), MPI_BYTE, 0, comm),
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
