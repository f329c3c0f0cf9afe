#include "../backend.hpp"
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

// The stream a call runs on: the one given, else the current stream of the communicator's
// device.
detail::NativeStream stream_for(const Communicator::State& state,
                                std::optional<StreamView> stream) {
    if (stream) {
        return stream->native();
    }
    if (detail::backend().current_device() == state.device) {
        return current_stream().native();
    }
    const DeviceGuard guard{Device(state.device)};
    return current_stream().native();
}

// Runs one library call for `operation`: a failure the library reports is a CommunicatorError,
// after an abort when the communicator itself failed.
// `call` gets the library, the communicator and the stream (`stream`, else the current one).
template <class Call>
void run(Communicator::State& state, std::string_view operation, std::optional<StreamView> stream,
         Call call) {
    state.check_usable(operation);
    detail::NativeStream const native = stream_for(state, stream);
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

}  // namespace

UniqueId Communicator::unique_id() {
    return usable_library().unique_id();
}

Communicator::Communicator(const UniqueId& id, int rank, int size,
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
    state_ = std::make_unique<State>();
    state_->library = &library;
    state_->rank = rank;
    state_->size = size;
    state_->device = detail::backend().current_device();
    state_->timeout = timeout;
    run(*state_, "init", StreamView{}, [&](detail::Collectives& l, auto /*none yet*/, auto) {
        state_->comm = l.init(id, rank, size);
        return detail::Progress::in_progress;
    });
}

Communicator::~Communicator() {
    if (!state_ || state_->aborted || detail::process_exiting()) {
        return;
    }
    // Flush the communicator's work, then free it; one that does not finish in time is aborted.
    State& s = *state_;
    try {
        const DeviceGuard guard{Device(s.device)};
        const bool flushed = s.library->finalize(s.comm) == detail::Progress::done ||
                             detail::wait_for(
                                 [&s] {
                                     auto status = s.library->status(s.comm);
                                     return detail::Poll{status.progress == detail::Progress::done,
                                                         std::move(status.error)};
                                 },
                                 s.timeout)
                                     .outcome == detail::WaitOutcome::done;
        if (flushed) {
            s.library->destroy(s.comm);
        } else {
            s.library->abort(s.comm);
        }
    } catch (...) {
        s.library->abort(s.comm);
    }
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
Communicator::State& require(const std::unique_ptr<Communicator::State>& state) {
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
    return require(state_).timeout;
}
void Communicator::set_timeout(std::chrono::milliseconds timeout) {
    if (timeout.count() < 0) {
        throw ValueError("kiln: Communicator.set_timeout: the timeout is " +
                         std::to_string(timeout.count()) + " ms but must not be negative");
    }
    require(state_).timeout = timeout;
}
bool Communicator::aborted() const {
    return require(state_).aborted;
}
void* Communicator::native() const {
    return require(state_).comm;
}

void Communicator::abort() const {
    require(state_).abort_with("the program called abort()");
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
    const std::string operation =
        s.last_operation.empty() ? "synchronize" : "synchronize after " + s.last_operation;
    s.check_usable(operation);
    const StreamView view{stream_for(s, stream)};
    const auto result = detail::wait_for(
        [&] {
            detail::Poll seen = s.poll();
            seen.finished = done(view);
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
