// What from_mpi (libkiln_mpi) asks of a backend whose collectives run over MPI itself, such as the
// host backend: the backend registers how it makes a communicator from an MPI communicator, and
// from_mpi calls that when the backend is active. Other backends take the NCCL/RCCL path.
#pragma once

#include <kiln/backend.hpp>
#include <kiln/distributed/communicator.hpp>

#include <mpi.h>

#include <chrono>

namespace kiln::detail {

// Called by every rank of `comm`, this process being `rank` of `size`.
using MpiCommunicatorMaker = distributed::Communicator (*)(MPI_Comm comm, int rank, int size,
                                                           std::chrono::milliseconds timeout);

// Makes from_mpi call `maker` while `backend` is active. Returns true, so that a backend can
// register from the initializer of a constant in libkiln_mpi, before main runs.
bool register_mpi_communicator_maker(BackendKind backend, MpiCommunicatorMaker maker);

// Throws Error naming `call` and MPI's text for `rc` unless it is MPI_SUCCESS.
void check_mpi(int rc, const char* call);

}  // namespace kiln::detail
