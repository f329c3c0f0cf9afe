// The host backend's collectives between ranks of one process (its host devices): the ranks of a
// communicator meet in shared memory. Each call becomes a task in its stream's order, as NCCL's
// kernels are; the task posts its buffers at the call's meeting and waits there until every rank
// has posted, and the last to arrive does the whole operation for all of them. A rank that never
// arrives leaves the others waiting until the communicator is aborted (by its timeout, in the
// core) or a peer leaves; no task waits past that.
#pragma once

#include "../../core/distributed/collectives.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace kiln::detail::host {

class InProcessCollectives final : public Collectives {
public:
    // Whether init() takes `id`: made by unique_id() here, and its communicator still gathering
    // its ranks.
    [[nodiscard]] bool knows(const distributed::UniqueId& id);

    [[nodiscard]] std::string library_name() override { return "kiln's in-process collectives"; }
    [[nodiscard]] std::string unavailable_reason() override { return ""; }
    [[nodiscard]] distributed::UniqueId unique_id() override;
    // Joins the ranks of `id` on the current device; Error when `id` was not made here, ValueError
    // when the ranks disagree on the size, or two of them take one rank or one device.
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

    // What the ranks of one communicator share (in_process_collectives.cpp).
    struct Clique;

private:
    // An id made here, and the communicator gathering its ranks (none before the first joins,
    // or after every rank that joined has left).
    struct Gathering {
        distributed::UniqueId id;
        std::weak_ptr<Clique> clique;
    };

    std::mutex mutex_;
    std::vector<Gathering> gathering_;
    std::uint64_t ids_made_ = 0;
};

}  // namespace kiln::detail::host
