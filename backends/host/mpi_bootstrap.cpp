// The host backend's from_mpi: its collectives are MPI's own (mpi_collectives.hpp), so no device is
// placed and no NCCL id is made. Built into libkiln_mpi, which links MPI.
#include "../../core/distributed/mpi_bootstrap.hpp"
#include "collectives_slot.hpp"
#include "mpi_collectives.hpp"

#include <kiln/error.hpp>

#include <string>

namespace kiln::detail::host {

namespace {

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

// MPI's collectives run on a duplicate of `comm` that the communicator owns; the id only tells
// this process's communicator which duplicate is its.
distributed::Communicator from_mpi(MPI_Comm comm, int rank, int size,
                                   std::chrono::milliseconds timeout) {
    int level = MPI_THREAD_SINGLE;
    check_mpi(MPI_Query_thread(&level), "MPI_Query_thread");
    if (level < MPI_THREAD_MULTIPLE) {
        throw Error(
            "kiln: from_mpi: the host backend calls MPI from its streams' threads, which needs "
            "MPI_THREAD_MULTIPLE, but MPI was started with " +
            thread_level_name(level) +
            ": start it with MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided)");
    }
    auto& library = MpiCollectives::instance();
    install_collectives(library);
    MPI_Comm own = MPI_COMM_NULL;
    check_mpi(MPI_Comm_dup(comm, &own), "MPI_Comm_dup");
    // Errors come back as codes, which the communicator reports, instead of ending the job.
    check_mpi(MPI_Comm_set_errhandler(own, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    distributed::UniqueId id;
    if (rank == 0) {
        id = library.unique_id();
    }
    check_mpi(MPI_Bcast(id.bytes.data(), static_cast<int>(id.bytes.size()), MPI_BYTE, 0, own),
              "MPI_Bcast");
    library.offer(id, own);
    return {id, rank, size, timeout};
}

[[maybe_unused]] const bool registered =
    register_mpi_communicator_maker(BackendKind::host, &from_mpi);

}  // namespace

}  // namespace kiln::detail::host
