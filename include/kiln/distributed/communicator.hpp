/// @file
/// A communicator over NCCL (CUDA) or RCCL (HIP): collectives and point-to-point transfers between
/// GPUs, of several processes or of one (CuPy's cupyx.distributed.NCCLBackend), on kiln's arrays
/// and streams. NCCL and RCCL are loaded at run time, like kiln's other vendor libraries: a machine
/// without them builds and runs kiln, and only constructing a communicator fails, saying where kiln
/// looked. The host backend's ranks meet in shared memory within a process, and through MPI across
/// processes (kiln/distributed/mpi.hpp).
#pragma once

#include <kiln/device.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/stream_view.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace kiln::distributed {

/// The reductions NCCL performs. On bool arrays sum and max are a logical or, prod and min a
/// logical and (NumPy's add and multiply on bool); avg is a TypeError there. Complex arrays take
/// sum and avg only (as pairs of reals). avg on integers truncates, as NCCL does.
enum class ReduceOp : std::uint8_t { sum, prod, max, min, avg };

/// What every rank of a new communicator must be given: made once (Communicator::unique_id()),
/// usually on rank 0, and sent to the others by any means (MPI: kiln/distributed/mpi.hpp).
struct UniqueId {
    /// The id's bytes, to be sent as they are.
    std::array<std::byte, 128> bytes{};

    /// Byte-wise equality.
    friend bool operator==(const UniqueId&, const UniqueId&) = default;
};

/// One rank of a communicator, on one device (one rank per device: NCCL forbids two ranks of a
/// communicator on one device). Operations are asynchronous on a stream (the current stream of the
/// communicator's device when none is given), as NCCL's are; arrays must live on the
/// communicator's device and be C-contiguous. Every library call runs with the communicator's
/// device current, and the caller's current device is left as it was. `synchronize` waits for a
/// stream within the communicator's timeout: a peer that died or hangs makes it abort the
/// communicator and throw CommunicatorError, instead of waiting forever. So do the constructor and
/// every operation whose setup does not finish in time. An aborted communicator refuses further
/// operations with the error that aborted it.
///
/// One thread driving the communicators of several devices puts their calls in one group
/// (Group, group()): alone, the first call may wait for the others, which never come.
///
/// Calls on one communicator from several threads are safe: they run one at a time (a call that
/// waits, such as synchronize, holds the others back until it returns, within the timeout). A
/// communicator must outlive every group it is called in: one destroyed while such a group is
/// still open is freed when the group ends, and Group::end() then throws Error saying so.
class Communicator {
public:
    /// The timeout a communicator starts with: 5 minutes.
    static constexpr std::chrono::milliseconds default_timeout{std::chrono::minutes(5)};

    /// A fresh id from the backend's library. Throws NoDevice when NCCL/RCCL is missing.
    [[nodiscard]] static UniqueId unique_id();

    /// One communicator of this process per device, rank i on devices[i] (ncclCommInitAll): one
    /// id, every rank joined from the calling thread in one group. ValueError for an empty list,
    /// a device named twice or one that does not exist; CommunicatorError as the constructor.
    [[nodiscard]] static std::vector<Communicator> create_all(
        const std::vector<int>& devices, std::chrono::milliseconds timeout = default_timeout);

    /// Joins rank `rank` of `size` ranks, all given the same `id`, on `device` (whatever device is
    /// current), or on the current device. Returns once every rank has joined; throws
    /// CommunicatorError (after aborting) if that takes longer than `timeout`, ValueError for a
    /// rank outside [0, size). Inside a group (as create_all does) it returns at once, and the
    /// group's end waits for the ranks.
    Communicator(const Device& device, const UniqueId& id, int rank, int size,
                 std::chrono::milliseconds timeout = default_timeout);
    /// Joins on the current device; as above.
    Communicator(const UniqueId& id, int rank, int size,
                 std::chrono::milliseconds timeout = default_timeout);
    ~Communicator();
    /// Takes over `other`'s communicator.
    Communicator(Communicator&& other) noexcept;
    /// Destroys this communicator and takes over `other`'s.
    Communicator& operator=(Communicator&& other) noexcept;
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;

    /// This rank, in [0, size()).
    [[nodiscard]] int rank() const;
    /// The number of ranks.
    [[nodiscard]] int size() const;
    /// The index of this rank's device.
    [[nodiscard]] int device() const;

    /// How long synchronize(), a group's end and any setup may wait before aborting.
    [[nodiscard]] std::chrono::milliseconds timeout() const;
    /// Sets timeout().
    void set_timeout(std::chrono::milliseconds timeout);

    /// Every rank's `in` reduced by `op` into every rank's `out` (same shape and dtype as `in`),
    /// or in place.
    void all_reduce(const ndarray& in, const ndarray& out, ReduceOp op = ReduceOp::sum,
                    std::optional<StreamView> stream = std::nullopt) const;
    /// all_reduce in place: `in_out` is both.
    void all_reduce(const ndarray& in_out, ReduceOp op = ReduceOp::sum,
                    std::optional<StreamView> stream = std::nullopt) const;

    /// Every rank's `in` reduced into `out` on rank `root` (other ranks' `out` is not written and
    /// may be an empty ndarray()), or in place.
    void reduce(const ndarray& in, const ndarray& out, int root = 0, ReduceOp op = ReduceOp::sum,
                std::optional<StreamView> stream = std::nullopt) const;
    /// reduce in place: `in_out` is both.
    void reduce(const ndarray& in_out, int root = 0, ReduceOp op = ReduceOp::sum,
                std::optional<StreamView> stream = std::nullopt) const;

    /// Rank `root`'s `in` copied into every rank's `out` (`in` is read on the root only), or in
    /// place.
    void broadcast(const ndarray& in, const ndarray& out, int root = 0,
                   std::optional<StreamView> stream = std::nullopt) const;
    /// broadcast in place: `in_out` is both.
    void broadcast(const ndarray& in_out, int root = 0,
                   std::optional<StreamView> stream = std::nullopt) const;

    /// Every rank's `in` side by side in `out`, in rank order: `out` holds size() times as many
    /// elements as `in`, of its dtype (any shape: (size(), *in.shape) is the natural one).
    void all_gather(const ndarray& in, const ndarray& out,
                    std::optional<StreamView> stream = std::nullopt) const;

    /// `in` (size() times as many elements as `out`) reduced over the ranks; rank r gets block r
    /// of the result in `out`.
    void reduce_scatter(const ndarray& in, const ndarray& out, ReduceOp op = ReduceOp::sum,
                        std::optional<StreamView> stream = std::nullopt) const;

    /// Sends `in` to rank `peer`, which calls recv with the same size and dtype (point to point). A
    /// rank that sends and receives at once puts both in one group (group()), or they may deadlock.
    void send(const ndarray& in, int peer, std::optional<StreamView> stream = std::nullopt) const;
    /// Receives `peer`'s send into `out`.
    void recv(const ndarray& out, int peer, std::optional<StreamView> stream = std::nullopt) const;

    /// Runs `operations` (calls on this or other communicators of this thread) as one group:
    /// NCCL launches them together once the function returns. See also Group.
    void group(const std::function<void()>& operations) const;

    /// Waits for the work queued so far on `stream` (the current stream of the communicator's
    /// device by default), watching for the communicator's failures; throws CommunicatorError
    /// after aborting it on a failure or after timeout(). Error inside an open group, whose calls
    /// are not queued before it ends.
    void synchronize(std::optional<StreamView> stream = std::nullopt) const;

    /// Stops this communicator's work on the device at once; later operations throw.
    void abort() const;
    /// Whether abort() was called or a failure aborted the communicator.
    [[nodiscard]] bool aborted() const;

    /// The library's communicator (ncclComm_t), for calls kiln does not make.
    [[nodiscard]] void* native() const;

    // Internal: the state shared with Group.
    struct State;

private:
    std::shared_ptr<State> state_;
};

}  // namespace kiln::distributed
