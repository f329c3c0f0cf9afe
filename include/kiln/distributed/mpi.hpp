/// @file
/// A Communicator from an MPI communicator: the usual start of a multi-GPU, multi-node code (one
/// rank per GPU, started by mpirun or the cluster's launcher). Declared here and built into
/// libkiln_mpi, so that libkiln never depends on MPI: include it where `<mpi.h>` is available and
/// link kiln::mpi (built, and installed, when kiln's configure finds MPI).
#pragma once

#include <kiln/distributed/communicator.hpp>

#include <mpi.h>

#include <chrono>

namespace kiln::distributed {

/// This process's rank among the ranks of `comm` that share its node
/// (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)).
[[nodiscard]] int local_rank(MPI_Comm comm);

/// A communicator over every rank of `comm`, called by all of them.
/// - On a GPU backend each rank makes the device numbered by its local rank current
///   (Device(local_rank(comm)).use()): one GPU per rank, as NCCL requires. Rank 0 makes the unique
///   id and MPI_Bcast gives it to the others. When a rank has no device of its own, or rank 0
///   cannot make an id (no NCCL), every rank throws NoDevice: none is left waiting.
/// - On the host backend the collectives run over MPI itself, on a duplicate of `comm`, from the
///   streams' threads: MPI must have been started with MPI_THREAD_MULTIPLE
///   (MPI_Init_thread), or every rank throws Error saying so.
[[nodiscard]] Communicator from_mpi(
    MPI_Comm comm, std::chrono::milliseconds timeout = Communicator::default_timeout);

}  // namespace kiln::distributed
