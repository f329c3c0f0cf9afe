// kiln/distributed/mpi.hpp: communicators from MPI. Built into libkiln_mpi, which links MPI.
#include <kiln/backend.hpp>
#include <kiln/config.hpp>
#include <kiln/device.hpp>
#include <kiln/distributed/mpi.hpp>
#include <kiln/error.hpp>

#if KILN_HAS_HOST
#include "../../backends/host/collectives_slot.hpp"
#include "../../backends/host/mpi_collectives.hpp"
#endif

#include <algorithm>
#include <array>
#include <string>

namespace kiln::distributed {

namespace {

void check_mpi(int rc, const char* call) {
    if (rc != MPI_SUCCESS) {
        std::array<char, MPI_MAX_ERROR_STRING> text{};
        int length = 0;
        MPI_Error_string(rc, text.data(), &length);
        throw Error("kiln: " + std::string(call) + " failed: " + std::string(text.data(), length));
    }
}

#if KILN_HAS_HOST
std::string thread_level_name(int level) {
    switch (level) {
        case MPI_THREAD_SINGLE:
            return "MPI_THREAD_SINGLE";
        case MPI_THREAD_FUNNELED:
            return "MPI_THREAD_FUNNELED";
        case MPI_THREAD_SERIALIZED:
            return "MPI_THREAD_SERIALIZED";
        default:
            return "MPI_THREAD_MULTIPLE";
    }
}

// The host backend's collectives are MPI's own, on a duplicate of `comm` that the communicator
// owns; the id only tells this process's communicator which duplicate is its.
Communicator host_from_mpi(MPI_Comm comm, int rank, int size, std::chrono::milliseconds timeout) {
    int level = MPI_THREAD_SINGLE;
    check_mpi(MPI_Query_thread(&level), "MPI_Query_thread");
    if (level < MPI_THREAD_MULTIPLE) {
        throw Error(
            "kiln: from_mpi: the host backend calls MPI from its streams' threads, which needs "
            "MPI_THREAD_MULTIPLE, but MPI was started with " +
            thread_level_name(level) +
            ": start it with MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided)");
    }
    auto& library = kiln::detail::host::MpiCollectives::instance();
    kiln::detail::host::install_collectives(library);
    MPI_Comm own = MPI_COMM_NULL;
    check_mpi(MPI_Comm_dup(comm, &own), "MPI_Comm_dup");
    // Errors come back as codes, which the communicator reports, instead of ending the job.
    check_mpi(MPI_Comm_set_errhandler(own, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    UniqueId id;
    if (rank == 0) {
        id = library.unique_id();
    }
    check_mpi(MPI_Bcast(id.bytes.data(), static_cast<int>(id.bytes.size()), MPI_BYTE, 0, own),
              "MPI_Bcast");
    library.offer(id, own);
    return {id, rank, size, timeout};
}
#endif

}  // namespace

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
#if KILN_HAS_HOST
    if (active_backend() == BackendKind::host) {
        return host_from_mpi(comm, rank, size, timeout);
    }
#endif

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
