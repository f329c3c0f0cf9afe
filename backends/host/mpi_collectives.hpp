// The host backend's library of collectives: MPI, on kiln's host streams. Built into libkiln_mpi,
// which links MPI (libkiln does not). Each call becomes a task in its stream's order that starts
// MPI's non-blocking form of the operation and polls it, so that a communicator that times out or
// is aborted ends its tasks instead of leaving a stream's thread blocked inside MPI. The tasks
// call MPI from the streams' threads: MPI must provide MPI_THREAD_MULTIPLE (from_mpi checks).
#pragma once

#include "../../core/distributed/collectives.hpp"

#include <mpi.h>

#include <array>
#include <mutex>
#include <utility>
#include <vector>

namespace kiln::detail::host {

class MpiCollectives final : public Collectives {
public:
    // The process's one instance, made on first use, once MPI is initialized.
    [[nodiscard]] static MpiCollectives& instance();

    // Hands `comm` (a duplicate, owned by the communicator from now on) to the Communicator this
    // process makes next with `id`: its ranks found each other through MPI already.
    void offer(const distributed::UniqueId& id, MPI_Comm comm);

    [[nodiscard]] std::string library_name() override { return "MPI"; }
    [[nodiscard]] std::string unavailable_reason() override { return ""; }
    [[nodiscard]] distributed::UniqueId unique_id() override;
    [[nodiscard]] NativeCommunicator init(const distributed::UniqueId& id, int rank,
                                          int size) override;
    [[nodiscard]] CommunicatorStatus status(NativeCommunicator comm) override;
    [[nodiscard]] Progress finalize(NativeCommunicator comm) override;
    void destroy(NativeCommunicator comm) override;
    void abort(NativeCommunicator comm) noexcept override;

    [[nodiscard]] Progress all_reduce(NativeCommunicator comm, const WireBuffers& b,
                                      distributed::ReduceOp op, NativeStream stream) override;
    [[nodiscard]] Progress reduce(NativeCommunicator comm, const WireBuffers& b,
                                  distributed::ReduceOp op, int root, NativeStream stream) override;
    [[nodiscard]] Progress broadcast(NativeCommunicator comm, const WireBuffers& b, int root,
                                     NativeStream stream) override;
    [[nodiscard]] Progress all_gather(NativeCommunicator comm, const WireBuffers& b,
                                      NativeStream stream) override;
    [[nodiscard]] Progress reduce_scatter(NativeCommunicator comm, const WireBuffers& b,
                                          distributed::ReduceOp op, NativeStream stream) override;
    [[nodiscard]] Progress send(NativeCommunicator comm, const WireBuffers& b, int peer,
                                NativeStream stream) override;
    [[nodiscard]] Progress recv(NativeCommunicator comm, const WireBuffers& b, int peer,
                                NativeStream stream) override;

    void group_start() override;
    [[nodiscard]] Progress group_end() override;

    // One call, as a task runs it (mpi_collectives.cpp).
    struct Operation;

private:
    MpiCollectives();

    // The MPI operator for `op` on the operation's type (avg sums, then divides).
    void set_reduction(Operation& operation, distributed::ReduceOp op) const;

    // float16 has no MPI type: its elements travel as MPI_UINT16_T, reduced by these (sum,
    // prod, max, min).
    std::array<MPI_Op, 4> half_ops_{};

    std::mutex mutex_;
    std::vector<std::pair<distributed::UniqueId, MPI_Comm>> offers_;
};

}  // namespace kiln::detail::host
