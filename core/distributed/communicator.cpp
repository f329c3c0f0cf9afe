#include "../backend.hpp"
#include "../call_context.hpp"
#include "../lifetime.hpp"
#include "collective_checks.hpp"
#include "communicator_state.hpp"
#include "progress_wait.hpp"
#include "wire_call.hpp"

#include <kiln/device.hpp>
#include <kiln/distributed/communicator.hpp>
#include <kiln/distributed/group.hpp>
#include <kiln/error.hpp>
#include <kiln/stream.hpp>

#include <string>
#include <utility>
#include <vector>

namespace kiln::distributed {

namespace {

// The backend's library of collectives; NoDevice saying why when it cannot be used.
detail::Collectives& usable_library() {
    detail::Collectives& library = detail::backend().collectives();
    if (const std::string why = library.unavailable_reason(); !why.empty()) {
        throw NoDevice("kiln: Communicator: " + why);
    }
    return library;
}

// The stream a call runs on: the one given (Error if it is another device's), else the current
// stream of the communicator's device.
StreamView stream_for(const Communicator::State& state, std::string_view operation,
                      std::optional<StreamView> stream) {
    return detail::call_stream("Communicator." + std::string(operation), state.device, stream);
}

// Runs one library call for `operation`, with the communicator's device current: a failure the
// library reports is a CommunicatorError, after an abort when the communicator itself failed.
// `call` gets the library, the communicator and the stream (`stream`, else the current one).
template <class Call>
void run(Communicator::State& state, std::string_view operation, std::optional<StreamView> stream,
         Call call) {
    const std::scoped_lock lock(state.mutex);
    state.check_usable(operation);
    detail::NativeStream const native = stream_for(state, operation, stream).native();
    const DeviceGuard on_device{Device(state.device)};
    detail::Progress progress{};
    try {
        progress = call(*state.library, state.comm, native);
    } catch (const BackendError& e) {
        if (auto status = state.library->status(state.comm); !status.error.empty()) {
            state.fail(operation, std::string(e.what()) + " (" + status.error + ")");
        }
        throw CommunicatorError(state.rank, state.size, std::string(operation), e.what());
    }
    state.after_call(operation, progress);
}

[[noreturn]] void refuse_devices(const std::string& what) {
    throw ValueError("kiln: Communicator.create_all: argument 'devices' " + what);
}

// create_all's devices: at least one, none twice (NCCL: two ranks on one device "is not
// supported and may lead to hangs"), each one that exists.
void check_devices(const std::vector<int>& devices) {
    if (devices.empty()) {
        refuse_devices("is empty but must name at least one device");
    }
    for (std::size_t i = 0; i < devices.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (devices[j] == devices[i]) {
                refuse_devices("names device " + std::to_string(devices[i]) +
                               " twice (at indices " + std::to_string(j) + " and " +
                               std::to_string(i) +
                               ") but must name each device once: NCCL forbids two ranks of a "
                               "communicator on one device");
            }
        }
    }
    const int count = device_count();
    for (std::size_t i = 0; i < devices.size(); ++i) {
        if (devices[i] < 0 || devices[i] >= count) {
            refuse_devices("names device " + std::to_string(devices[i]) + " (at index " +
                           std::to_string(i) + ") but must name devices in [0, " +
                           std::to_string(count) + "): this process sees " + std::to_string(count) +
                           " device(s)");
        }
    }
}

}  // namespace

UniqueId Communicator::unique_id() {
    return usable_library().unique_id();
}

std::vector<Communicator> Communicator::create_all(const std::vector<int>& devices,
                                                   std::chrono::milliseconds timeout) {
    check_devices(devices);
    const UniqueId id = unique_id();
    const int size = static_cast<int>(devices.size());
    std::vector<Communicator> comms;
    comms.reserve(devices.size());
    // NCCL: one thread making communicators for several devices makes them in one group.
    Group group;
    for (int rank = 0; rank < size; ++rank) {
        comms.emplace_back(Device(devices[static_cast<std::size_t>(rank)]), id, rank, size,
                           timeout);
    }
    group.end();
    return comms;
}

Communicator::Communicator(const UniqueId& id, int rank, int size,
                           std::chrono::milliseconds timeout)
    : Communicator(Device::current(), id, rank, size, timeout) {}

Communicator::Communicator(const Device& device, const UniqueId& id, int rank, int size,
                           std::chrono::milliseconds timeout) {
    if (size < 1) {
        throw ValueError("kiln: Communicator: size is " + std::to_string(size) +
                         " but must be at least 1");
    }
    if (rank < 0 || rank >= size) {
        throw ValueError("kiln: Communicator: rank is " + std::to_string(rank) +
                         " but must be in [0, " + std::to_string(size) + ")");
    }
    detail::Collectives& library = usable_library();
    state_ = std::make_shared<State>();
    state_->library = &library;
    state_->rank = rank;
    state_->size = size;
    state_->device = device.id();
    state_->timeout = timeout;
    run(*state_, "init", StreamView{}, [&](detail::Collectives& l, auto /*none yet*/, auto) {
        state_->comm = l.init(id, rank, size);
        return detail::Progress::in_progress;
    });
}

// A communicator still in an open group (a misuse) is released when the last such group ends,
// which reports it; a destructor cannot throw.
Communicator::~Communicator() {
    if (!state_ || detail::process_exiting()) {
        return;
    }
    {
        const std::scoped_lock lock(state_->mutex);
        if (state_->open_groups > 0) {
            state_->orphaned = true;
            return;
        }
    }
    state_->release();
}

Communicator::Communicator(Communicator&& other) noexcept = default;
Communicator& Communicator::operator=(Communicator&& other) noexcept {
    if (this != &other) {
        Communicator dropped(std::move(*this));
        state_ = std::move(other.state_);
    }
    return *this;
}

namespace {
Communicator::State& require(const std::shared_ptr<Communicator::State>& state) {
    if (!state) {
        throw Error("kiln: use of a moved-from Communicator");
    }
    return *state;
}
}  // namespace

int Communicator::rank() const {
    return require(state_).rank;
}
int Communicator::size() const {
    return require(state_).size;
}
int Communicator::device() const {
    return require(state_).device;
}
std::chrono::milliseconds Communicator::timeout() const {
    State& s = require(state_);
    const std::scoped_lock lock(s.mutex);
    return s.timeout;
}
void Communicator::set_timeout(std::chrono::milliseconds timeout) {
    if (timeout.count() < 0) {
        throw ValueError("kiln: Communicator.set_timeout: the timeout is " +
                         std::to_string(timeout.count()) + " ms but must not be negative");
    }
    State& s = require(state_);
    const std::scoped_lock lock(s.mutex);
    s.timeout = timeout;
}
bool Communicator::aborted() const {
    State& s = require(state_);
    const std::scoped_lock lock(s.mutex);
    return s.aborted;
}
void* Communicator::native() const {
    State& s = require(state_);
    const std::scoped_lock lock(s.mutex);
    return s.comm;
}

void Communicator::abort() const {
    State& s = require(state_);
    const std::scoped_lock lock(s.mutex);
    s.abort_with("the program called abort()");
}

void Communicator::all_reduce(const ndarray& in, const ndarray& out, ReduceOp op,
                              std::optional<StreamView> stream) const {
    constexpr std::string_view name = "all_reduce";
    State& s = require(state_);
    detail::check_buffer(name, "in", in, s.device);
    detail::check_buffer(name, "out", out, s.device);
    detail::check_like(name, in, out);
    const auto wire = detail::reduction_wire(name, in.dtype(), in.size(), op);
    run(s, name, stream, [&](detail::Collectives& l, auto c, auto native) {
        return l.all_reduce(c, {in.data(), out.data(), wire.count, wire.type}, wire.op, native);
    });
}

void Communicator::all_reduce(const ndarray& in_out, ReduceOp op,
                              std::optional<StreamView> stream) const {
    all_reduce(in_out, in_out, op, stream);
}

void Communicator::reduce(const ndarray& in, const ndarray& out, int root, ReduceOp op,
                          std::optional<StreamView> stream) const {
    constexpr std::string_view name = "reduce";
    State& s = require(state_);
    detail::check_rank(name, "root", root, s.size);
    detail::check_buffer(name, "in", in, s.device);
    const bool receives = s.rank == root;
    if (receives) {
        detail::check_buffer(name, "out", out, s.device);
        detail::check_like(name, in, out);
    }
    const auto wire = detail::reduction_wire(name, in.dtype(), in.size(), op);
    run(s, name, stream, [&](detail::Collectives& l, auto c, auto native) {
        return l.reduce(c, {in.data(), receives ? out.data() : nullptr, wire.count, wire.type},
                        wire.op, root, native);
    });
}

void Communicator::reduce(const ndarray& in_out, int root, ReduceOp op,
                          std::optional<StreamView> stream) const {
    reduce(in_out, in_out, root, op, stream);
}

void Communicator::broadcast(const ndarray& in, const ndarray& out, int root,
                             std::optional<StreamView> stream) const {
    constexpr std::string_view name = "broadcast";
    State& s = require(state_);
    detail::check_rank(name, "root", root, s.size);
    detail::check_buffer(name, "out", out, s.device);
    const bool sends = s.rank == root;
    if (sends) {
        detail::check_buffer(name, "in", in, s.device);
        detail::check_like(name, in, out);
    }
    const auto wire = detail::transfer_wire(out.dtype(), out.size());
    run(s, name, stream, [&](detail::Collectives& l, auto c, auto native) {
        return l.broadcast(c, {sends ? in.data() : nullptr, out.data(), wire.count, wire.type},
                           root, native);
    });
}

void Communicator::broadcast(const ndarray& in_out, int root,
                             std::optional<StreamView> stream) const {
    broadcast(in_out, in_out, root, stream);
}

void Communicator::all_gather(const ndarray& in, const ndarray& out,
                              std::optional<StreamView> stream) const {
    constexpr std::string_view name = "all_gather";
    State& s = require(state_);
    detail::check_buffer(name, "in", in, s.device);
    detail::check_buffer(name, "out", out, s.device);
    detail::check_count(name, "out", out, in, in.size() * s.size, "size() x in.size()");
    const auto wire = detail::transfer_wire(in.dtype(), in.size());
    run(s, name, stream, [&](detail::Collectives& l, auto c, auto native) {
        return l.all_gather(c, {in.data(), out.data(), wire.count, wire.type}, native);
    });
}

void Communicator::reduce_scatter(const ndarray& in, const ndarray& out, ReduceOp op,
                                  std::optional<StreamView> stream) const {
    constexpr std::string_view name = "reduce_scatter";
    State& s = require(state_);
    detail::check_buffer(name, "in", in, s.device);
    detail::check_buffer(name, "out", out, s.device);
    detail::check_count(name, "in", in, out, out.size() * s.size, "size() x out.size()");
    const auto wire = detail::reduction_wire(name, out.dtype(), out.size(), op);
    run(s, name, stream, [&](detail::Collectives& l, auto c, auto native) {
        return l.reduce_scatter(c, {in.data(), out.data(), wire.count, wire.type}, wire.op, native);
    });
}

void Communicator::send(const ndarray& in, int peer, std::optional<StreamView> stream) const {
    constexpr std::string_view name = "send";
    State& s = require(state_);
    detail::check_rank(name, "peer", peer, s.size);
    detail::check_buffer(name, "in", in, s.device);
    const auto wire = detail::transfer_wire(in.dtype(), in.size());
    run(s, name, stream, [&](detail::Collectives& l, auto c, auto native) {
        return l.send(c, {in.data(), nullptr, wire.count, wire.type}, peer, native);
    });
}

void Communicator::recv(const ndarray& out, int peer, std::optional<StreamView> stream) const {
    constexpr std::string_view name = "recv";
    State& s = require(state_);
    detail::check_rank(name, "peer", peer, s.size);
    detail::check_buffer(name, "out", out, s.device);
    const auto wire = detail::transfer_wire(out.dtype(), out.size());
    run(s, name, stream, [&](detail::Collectives& l, auto c, auto native) {
        return l.recv(c, {nullptr, out.data(), wire.count, wire.type}, peer, native);
    });
}

void Communicator::group(const std::function<void()>& operations) const {
    (void)require(state_);
    Group group;
    operations();
    group.end();
}

void Communicator::synchronize(std::optional<StreamView> stream) const {
    State& s = require(state_);
    const std::scoped_lock lock(s.mutex);
    const std::string operation =
        s.last_operation.empty() ? "synchronize" : "synchronize after " + s.last_operation;
    if (detail::group_open()) {
        throw Error("kiln: Communicator." + operation +
                    ": called inside a group, whose calls are queued only when it ends: "
                    "synchronize after Group.end() (or after group())");
    }
    s.check_usable(operation);
    const StreamView view = stream_for(s, operation, stream);
    const DeviceGuard on_device{Device(s.device)};
    const auto result = detail::wait_for(
        [&] {
            // The stream first: once its work is done, any failure that work met is in the
            // status, whereas a status read first can miss one the work records just after.
            const bool finished = done(view);
            detail::Poll seen = s.poll();
            seen.finished = finished;
            return seen;
        },
        s.timeout);
    switch (result.outcome) {
        case detail::WaitOutcome::done:
            return;
        case detail::WaitOutcome::failed:
            s.fail(operation, s.library->library_name() + " reported: " + result.error);
        case detail::WaitOutcome::timed_out:
            s.fail(operation,
                   "the stream did not finish within " + std::to_string(s.timeout.count()) + " ms");
    }
}

}  // namespace kiln::distributed
