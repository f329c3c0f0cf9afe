#include "mpi_collectives.hpp"

#include "../../core/backend.hpp"
#include "joined_streams.hpp"

#include <kiln/error.hpp>
#include <kiln/float16.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <random>
#include <string>
#include <thread>

namespace kiln::detail::host {

using distributed::ReduceOp;

namespace {

// One communicator: its duplicate of the user's MPI communicator, and what its tasks report.
// Shared by the handle and the tasks in flight, which may outlive an abort.
struct Comm {
    MPI_Comm comm = MPI_COMM_NULL;
    int rank = 0;
    int size = 0;
    std::atomic<bool> aborted{false};
    std::atomic<int> in_flight{0};
    std::mutex mutex;
    std::string error;  // the first failure of a task

    void fail(const std::string& what) {
        const std::scoped_lock lock(mutex);
        if (error.empty()) {
            error = what;
        }
    }
};

struct Handle {
    std::shared_ptr<Comm> comm;
};

std::shared_ptr<Comm> comm_of(NativeCommunicator native) {
    return static_cast<Handle*>(native)->comm;
}

void check(int rc, const char* call) {
    if (rc != MPI_SUCCESS) {
        std::array<char, MPI_MAX_ERROR_STRING> text{};
        int length = 0;
        MPI_Error_string(rc, text.data(), &length);
        throw BackendError(call, rc, std::string(text.data(), length));
    }
}

MPI_Datatype mpi_type(WireType type) {
    switch (type) {
        case WireType::int8:
            return MPI_INT8_T;
        case WireType::uint8:
            return MPI_UINT8_T;
        case WireType::int32:
            return MPI_INT32_T;
        case WireType::uint32:
            return MPI_UINT32_T;
        case WireType::int64:
            return MPI_INT64_T;
        case WireType::uint64:
            return MPI_UINT64_T;
        case WireType::float16:
            return MPI_UINT16_T;
        case WireType::float32:
            return MPI_FLOAT;
        case WireType::float64:
            return MPI_DOUBLE;
    }
    return MPI_BYTE;
}

// MPI counts are ints: a longer call is refused before it is queued.
int mpi_count(std::string_view operation, std::size_t count) {
    if (count > static_cast<std::size_t>(INT_MAX)) {
        throw ValueError("kiln: Communicator." + std::string(operation) + ": " +
                         std::to_string(count) +
                         " elements, but MPI (the host backend's transport) carries at most " +
                         std::to_string(INT_MAX) + " in one call");
    }
    return static_cast<int>(count);
}

// The float16 reductions MPI lacks, computed in float as NCCL does.
template <class Combine>
void combine_halves(const void* in, void* in_out, const int* length, Combine combine) {
    const auto* a = static_cast<const half*>(in);
    auto* b = static_cast<half*>(in_out);
    for (int i = 0; i < *length; ++i) {
        b[i] = half(combine(static_cast<float>(a[i]), static_cast<float>(b[i])));
    }
}
void half_sum(void* in, void* in_out, int* length, MPI_Datatype* /*type*/) {
    combine_halves(in, in_out, length, [](float a, float b) { return a + b; });
}
void half_prod(void* in, void* in_out, int* length, MPI_Datatype* /*type*/) {
    combine_halves(in, in_out, length, [](float a, float b) { return a * b; });
}
void half_max(void* in, void* in_out, int* length, MPI_Datatype* /*type*/) {
    combine_halves(in, in_out, length, [](float a, float b) { return a > b ? a : b; });
}
void half_min(void* in, void* in_out, int* length, MPI_Datatype* /*type*/) {
    combine_halves(in, in_out, length, [](float a, float b) { return a < b ? a : b; });
}

template <class T>
void divide(void* data, std::size_t count, int size) {
    auto* values = static_cast<T*>(data);
    for (std::size_t i = 0; i < count; ++i) {
        if constexpr (std::is_same_v<T, half>) {
            values[i] = half(static_cast<float>(values[i]) / static_cast<float>(size));
        } else {
            values[i] = static_cast<T>(values[i] / static_cast<T>(size));
        }
    }
}

// avg is a sum divided by the rank count afterwards, in the element type (integers truncate).
void divide(WireType type, void* data, std::size_t count, int size) {
    switch (type) {
        case WireType::int8:
            return divide<std::int8_t>(data, count, size);
        case WireType::uint8:
            return divide<std::uint8_t>(data, count, size);
        case WireType::int32:
            return divide<std::int32_t>(data, count, size);
        case WireType::uint32:
            return divide<std::uint32_t>(data, count, size);
        case WireType::int64:
            return divide<std::int64_t>(data, count, size);
        case WireType::uint64:
            return divide<std::uint64_t>(data, count, size);
        case WireType::float16:
            return divide<half>(data, count, size);
        case WireType::float32:
            return divide<float>(data, count, size);
        case WireType::float64:
            return divide<double>(data, count, size);
    }
}

bool overlap(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
    const auto* x = static_cast<const std::byte*>(a);
    const auto* y = static_cast<const std::byte*>(b);
    return x < y + b_bytes && y < x + a_bytes;
}

// Point-to-point transfers of one communicator match in the order they were queued, as NCCL's.
constexpr int transfer_tag = 0;

}  // namespace

struct MpiCollectives::Operation {
    enum class Kind : std::uint8_t {
        all_reduce,
        reduce,
        broadcast,
        all_gather,
        reduce_scatter,
        send,
        recv
    };

    std::shared_ptr<Comm> comm;
    Kind kind = Kind::all_reduce;
    WireBuffers buffers;
    int count = 0;
    MPI_Op op = MPI_SUM;
    bool average = false;
    int peer = 0;  // the root of reduce and broadcast; the other rank of send and recv
    std::vector<std::byte> staging;  // reduce_scatter's input when it overlaps the output

    // Starts the call; run() waits for the request it returns.
    [[nodiscard]] MPI_Request start() {
        MPI_Comm c = comm->comm;
        MPI_Datatype type = mpi_type(buffers.type);
        const std::size_t bytes = buffers.count * wire_size(buffers.type);
        const void* send = buffers.send;
        void* receive = buffers.receive;
        MPI_Request request = MPI_REQUEST_NULL;
        switch (kind) {
            case Kind::all_reduce:
                check(MPI_Iallreduce(send == receive ? MPI_IN_PLACE : send, receive, count, type,
                                     op, c, &request),
                      "MPI_Iallreduce");
                break;
            case Kind::reduce:
                check(MPI_Ireduce(comm->rank == peer && send == receive ? MPI_IN_PLACE : send,
                                  receive, count, type, op, peer, c, &request),
                      "MPI_Ireduce");
                break;
            case Kind::broadcast:
                if (comm->rank == peer && send != receive) {
                    std::memmove(receive, send, bytes);
                }
                check(MPI_Ibcast(receive, count, type, peer, c, &request), "MPI_Ibcast");
                break;
            case Kind::all_gather: {
                const bool in_place = send == static_cast<std::byte*>(receive) +
                                                  bytes * static_cast<std::size_t>(comm->rank);
                check(MPI_Iallgather(in_place ? MPI_IN_PLACE : send, count, type, receive, count,
                                     type, c, &request),
                      "MPI_Iallgather");
                break;
            }
            case Kind::reduce_scatter: {
                const std::size_t in_bytes = bytes * static_cast<std::size_t>(comm->size);
                if (overlap(send, in_bytes, receive, bytes)) {
                    const auto* first = static_cast<const std::byte*>(send);
                    staging.assign(first, first + in_bytes);
                    send = staging.data();
                }
                check(MPI_Ireduce_scatter_block(send, receive, count, type, op, c, &request),
                      "MPI_Ireduce_scatter_block");
                break;
            }
            case Kind::send:
                check(MPI_Isend(send, count, type, peer, transfer_tag, c, &request), "MPI_Isend");
                break;
            case Kind::recv:
                check(MPI_Irecv(receive, count, type, peer, transfer_tag, c, &request),
                      "MPI_Irecv");
                break;
        }
        return request;  // NOLINT(clang-analyzer-optin.mpi.MPI-Checker): run() waits for it
    }

    // After the call completed: avg's division, where this rank received a result.
    void finish() const {
        const bool received = kind == Kind::all_reduce || kind == Kind::reduce_scatter ||
                              (kind == Kind::reduce && comm->rank == peer);
        if (average && received) {
            divide(buffers.type, buffers.receive, buffers.count, comm->size);
        }
    }
};

namespace {

using Operations = std::vector<MpiCollectives::Operation>;

// The calling thread's open groups (ncclGroupStart/End): their depth and the calls kept for the
// end, with their streams.
struct OpenGroup {
    int depth = 0;
    std::vector<std::pair<NativeStream, MpiCollectives::Operation>> calls;
};
thread_local OpenGroup open_group;

bool any_aborted(const Operations& operations) {
    return std::any_of(operations.begin(), operations.end(),
                       [](const auto& o) { return o.comm->aborted.load(); });
}

// A task: starts every call, then polls them together (a group's sends and receives must all be
// posted before any can finish). An abort ends the polling: MPI cannot cancel a collective, so
// its request is left to the aborted communicator, which is never freed.
void run(Operations& operations) noexcept {
    try {
        if (!any_aborted(operations)) {
            std::vector<MPI_Request> requests;
            requests.reserve(operations.size());
            for (auto& operation : operations) {
                requests.push_back(operation.start());
            }
            constexpr std::chrono::microseconds longest_pause{100};
            std::chrono::microseconds pause{1};
            int finished = 0;
            while (true) {
                check(MPI_Testall(static_cast<int>(requests.size()), requests.data(), &finished,
                                  MPI_STATUSES_IGNORE),
                      "MPI_Testall");
                if (finished != 0 || any_aborted(operations)) {
                    break;
                }
                std::this_thread::sleep_for(pause);
                pause = std::min(pause * 2, longest_pause);
            }
            if (finished != 0) {
                for (const auto& operation : operations) {
                    operation.finish();
                }
            }
        }
    } catch (const std::exception& e) {
        for (auto& operation : operations) {
            operation.comm->fail(e.what());
        }
    }
    for (auto& operation : operations) {
        --operation.comm->in_flight;
    }
}

void launch(NativeStream stream, Operations operations) {
    auto shared = std::make_shared<Operations>(std::move(operations));
    backend().launch_host_func(StreamView{stream}, [shared] { run(*shared); });
}

}  // namespace

MpiCollectives& MpiCollectives::instance() {
    // Never destroyed: communicators may be finalized after main returns.
    static auto* library = new MpiCollectives();
    return *library;
}

MpiCollectives::MpiCollectives() {
    const std::array functions{&half_sum, &half_prod, &half_max, &half_min};
    for (std::size_t i = 0; i < functions.size(); ++i) {
        check(MPI_Op_create(functions.at(i), 1, &half_ops_.at(i)), "MPI_Op_create");
    }
}

void MpiCollectives::offer(const distributed::UniqueId& id, MPI_Comm comm) {
    const std::scoped_lock lock(mutex_);
    offers_.emplace_back(id, comm);
}

distributed::UniqueId MpiCollectives::unique_id() {
    distributed::UniqueId id;
    std::random_device entropy;
    for (std::size_t i = 0; i < 16; ++i) {
        id.bytes.at(i) = static_cast<std::byte>(entropy());
    }
    return id;
}

NativeCommunicator MpiCollectives::init(const distributed::UniqueId& id, int rank, int size) {
    MPI_Comm comm = MPI_COMM_NULL;
    {
        const std::scoped_lock lock(mutex_);
        const auto found = std::find_if(offers_.begin(), offers_.end(),
                                        [&](const auto& offer) { return offer.first == id; });
        if (found == offers_.end()) {
            throw Error(
                "kiln: Communicator: the id was not made in this process; the host backend's "
                "ranks in several processes meet through MPI: make the communicator with "
                "kiln::distributed::from_mpi (kiln/distributed/mpi.hpp)");
        }
        comm = found->second;
        offers_.erase(found);
    }
    auto state = std::make_shared<Comm>();
    state->comm = comm;
    check(MPI_Comm_rank(comm, &state->rank), "MPI_Comm_rank");
    check(MPI_Comm_size(comm, &state->size), "MPI_Comm_size");
    if (state->rank != rank || state->size != size) {
        throw ValueError("kiln: Communicator: rank " + std::to_string(rank) + " of " +
                         std::to_string(size) + " given, but the MPI communicator has rank " +
                         std::to_string(state->rank) + " of " + std::to_string(state->size));
    }
    return new Handle{std::move(state)};
}

CommunicatorStatus MpiCollectives::status(NativeCommunicator comm) {
    const auto state = comm_of(comm);
    const std::scoped_lock lock(state->mutex);
    return {state->in_flight.load() == 0 ? Progress::done : Progress::in_progress, state->error};
}

Progress MpiCollectives::finalize(NativeCommunicator comm) {
    return comm_of(comm)->in_flight.load() == 0 ? Progress::done : Progress::in_progress;
}

void MpiCollectives::destroy(NativeCommunicator comm) {
    auto* handle = static_cast<Handle*>(comm);
    // A communicator destroyed after MPI_Finalize (a static one) has nothing left to free.
    int finalized = 0;
    MPI_Finalized(&finalized);
    const int rc = finalized != 0 ? MPI_SUCCESS : MPI_Comm_free(&handle->comm->comm);
    delete handle;
    check(rc, "MPI_Comm_free");
}

void MpiCollectives::abort(NativeCommunicator comm) noexcept {
    auto* handle = static_cast<Handle*>(comm);
    handle->comm->aborted = true;
    delete handle;
}

namespace {

using Kind = MpiCollectives::Operation::Kind;

// Queues `operation` on `stream`, or keeps it for the calling thread's open group.
Progress submit(MpiCollectives::Operation operation, NativeStream stream) {
    ++operation.comm->in_flight;
    if (open_group.depth > 0) {
        open_group.calls.emplace_back(stream, std::move(operation));
        return Progress::done;
    }
    Operations one;
    one.push_back(std::move(operation));
    launch(stream, std::move(one));
    return Progress::done;
}

MpiCollectives::Operation make(NativeCommunicator native, Kind kind, const WireBuffers& b,
                               std::string_view operation, int peer = 0) {
    MpiCollectives::Operation o;
    o.comm = comm_of(native);
    o.kind = kind;
    o.buffers = b;
    o.count = mpi_count(operation, b.count);
    o.peer = peer;
    return o;
}

}  // namespace

void MpiCollectives::set_reduction(Operation& operation, ReduceOp op) const {
    const auto index = static_cast<std::size_t>(op == ReduceOp::avg ? ReduceOp::sum : op);
    static const std::array builtin{MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN};
    operation.op =
        operation.buffers.type == WireType::float16 ? half_ops_.at(index) : builtin.at(index);
    operation.average = op == ReduceOp::avg;
}

Progress MpiCollectives::all_reduce(NativeCommunicator comm, const WireBuffers& b, ReduceOp op,
                                    NativeStream stream) {
    auto o = make(comm, Kind::all_reduce, b, "all_reduce");
    set_reduction(o, op);
    return submit(std::move(o), stream);
}

Progress MpiCollectives::reduce(NativeCommunicator comm, const WireBuffers& b, ReduceOp op,
                                int root, NativeStream stream) {
    auto o = make(comm, Kind::reduce, b, "reduce", root);
    set_reduction(o, op);
    return submit(std::move(o), stream);
}

Progress MpiCollectives::broadcast(NativeCommunicator comm, const WireBuffers& b, int root,
                                   NativeStream stream) {
    return submit(make(comm, Kind::broadcast, b, "broadcast", root), stream);
}

Progress MpiCollectives::all_gather(NativeCommunicator comm, const WireBuffers& b,
                                    NativeStream stream) {
    return submit(make(comm, Kind::all_gather, b, "all_gather"), stream);
}

Progress MpiCollectives::reduce_scatter(NativeCommunicator comm, const WireBuffers& b, ReduceOp op,
                                        NativeStream stream) {
    auto o = make(comm, Kind::reduce_scatter, b, "reduce_scatter");
    set_reduction(o, op);
    return submit(std::move(o), stream);
}

Progress MpiCollectives::send(NativeCommunicator comm, const WireBuffers& b, int peer,
                              NativeStream stream) {
    return submit(make(comm, Kind::send, b, "send", peer), stream);
}

Progress MpiCollectives::recv(NativeCommunicator comm, const WireBuffers& b, int peer,
                              NativeStream stream) {
    return submit(make(comm, Kind::recv, b, "recv", peer), stream);
}

void MpiCollectives::group_start() {
    ++open_group.depth;
}

// The group's calls run as one task on the stream of its first call; the other streams' prior
// work comes before it, and their later work after it, through events.
Progress MpiCollectives::group_end() {
    if (open_group.depth == 0 || --open_group.depth > 0) {
        return Progress::done;
    }
    auto calls = std::exchange(open_group.calls, {});
    if (calls.empty()) {
        return Progress::done;
    }
    // One rank per process, on the current device: its streams are all that device's.
    const int device = current_device();
    std::vector<StreamView> streams;
    Operations operations;
    for (auto& [stream, operation] : calls) {
        streams.emplace_back(stream, device);
        operations.push_back(std::move(operation));
    }
    launch_joined(streams.front(), streams, [&operations](StreamView first) {
        launch(first.native(), std::move(operations));
    });
    return Progress::done;
}

}  // namespace kiln::detail::host
