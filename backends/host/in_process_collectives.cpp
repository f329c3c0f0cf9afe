#include "in_process_collectives.hpp"

#include "../../core/backend.hpp"
#include "joined_streams.hpp"
#include "streams.hpp"

#include <kiln/error.hpp>
#include <kiln/float16.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <compare>
#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>

namespace kiln::detail::host {

using distributed::ReduceOp;

namespace {

enum class Kind : std::uint8_t {
    all_reduce,
    reduce,
    broadcast,
    all_gather,
    reduce_scatter,
    send,
    recv
};

std::string kind_name(Kind kind) {
    switch (kind) {
        case Kind::all_reduce:
            return "all_reduce";
        case Kind::reduce:
            return "reduce";
        case Kind::broadcast:
            return "broadcast";
        case Kind::all_gather:
            return "all_gather";
        case Kind::reduce_scatter:
            return "reduce_scatter";
        case Kind::send:
            return "send";
        case Kind::recv:
            return "recv";
    }
    return "?";
}

std::string wire_name(WireType type) {
    switch (type) {
        case WireType::int8:
            return "int8";
        case WireType::uint8:
            return "uint8";
        case WireType::int32:
            return "int32";
        case WireType::uint32:
            return "uint32";
        case WireType::int64:
            return "int64";
        case WireType::uint64:
            return "uint64";
        case WireType::float16:
            return "float16";
        case WireType::float32:
            return "float32";
        case WireType::float64:
            return "float64";
    }
    return "?";
}

bool reduces(Kind kind) {
    return kind == Kind::all_reduce || kind == Kind::reduce || kind == Kind::reduce_scatter;
}

bool rooted(Kind kind) {
    return kind == Kind::reduce || kind == Kind::broadcast;
}

// The queue a call's task lands on. A created stream and the legacy stream are one queue for
// every thread; the per-thread stream is a queue per thread.
struct QueueId {
    NativeStream stream = nullptr;
    std::thread::id thread;

    bool operator==(const QueueId&) const = default;
};

QueueId queue_of(NativeStream stream) {
    return {stream, stream == Streams::per_thread_handle() ? std::this_thread::get_id()
                                                           : std::thread::id{}};
}

std::string queue_name(const QueueId& queue) {
    if (queue.stream == nullptr) {
        return "the legacy default stream";
    }
    if (queue.stream == Streams::per_thread_handle()) {
        return "one thread's per-thread default stream";
    }
    std::ostringstream text;
    text << "stream " << queue.stream;
    return text.str();
}

// Where the calls of the ranks meet: a collective by its number among the communicator's
// collectives (from = -1), a transfer by sender, receiver and its number among their transfers.
struct MeetingKey {
    int from = -1;
    int to = -1;
    std::uint64_t number = 0;

    // clang-tidy 14 reads the defaulted comparison's implicit 0 as a null pointer.
    auto operator<=>(const MeetingKey&) const = default;  // NOLINT(modernize-use-nullptr)
};

struct Member;

// One rank's call, as its task carries it.
struct Call {
    std::shared_ptr<Member> member;
    Kind kind = Kind::all_reduce;
    WireBuffers buffers;
    ReduceOp op = ReduceOp::sum;
    int root = 0;  // reduce's and broadcast's root; the other rank of send and recv
    MeetingKey key;
    std::size_t part = 0;  // its place in the meeting: the rank, or 0 to send and 1 to receive
};

// What the call reads as its description in a mismatch: "all_reduce (sum) of 1027 float32".
std::string describe(const Call& call) {
    std::string text = kind_name(call.kind);
    if (reduces(call.kind)) {
        static constexpr std::array ops{"sum", "prod", "max", "min", "avg"};
        text += std::string(" (") + ops.at(static_cast<std::size_t>(call.op)) + ")";
    }
    if (rooted(call.kind)) {
        text += " to root " + std::to_string(call.root);
    }
    return text + " of " + std::to_string(call.buffers.count) + " " + wire_name(call.buffers.type);
}

// One rank's place in a meeting.
struct Part {
    const Call* call = nullptr;  // while it has arrived and not left
    QueueId queue;
    std::uint64_t task = 0;  // the task it was queued in; 0 before
};

struct Meeting {
    std::vector<Part> parts;
    std::size_t arrived = 0;
    std::size_t left = 0;
    bool performing = false;
    bool done = false;
    std::string failure;
};

}  // namespace

struct InProcessCollectives::Clique {
    explicit Clique(int ranks)
        : size(ranks),
          devices(static_cast<std::size_t>(ranks), -1),
          gone(static_cast<std::size_t>(ranks)) {}

    const int size;
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<int> devices;  // each rank's device; -1 until it joins
    int joined = 0;
    std::vector<std::string> gone;  // why a rank left ("" while it is a member)
    std::map<MeetingKey, Meeting> meetings;
};

namespace {

using Clique = InProcessCollectives::Clique;

// One rank: its clique and, under the clique's mutex, its counts and its first failure.
struct Member {
    std::shared_ptr<Clique> clique;
    int rank = 0;
    std::uint64_t collectives = 0;
    std::vector<std::uint64_t> sent;      // by receiver
    std::vector<std::uint64_t> received;  // by sender
    int in_flight = 0;
    std::string error;
};

struct Handle {
    std::shared_ptr<Member> member;
};

Member& member_of(NativeCommunicator comm) {
    return *static_cast<Handle*>(comm)->member;
}

int rank_of(const MeetingKey& key, std::size_t part) {
    if (key.from < 0) {
        return static_cast<int>(part);
    }
    return part == 0 ? key.from : key.to;
}

std::string meeting_name(const MeetingKey& key) {
    if (key.from < 0) {
        return "collective #" + std::to_string(key.number);
    }
    return "transfer #" + std::to_string(key.number) + " from rank " + std::to_string(key.from) +
           " to rank " + std::to_string(key.to);
}

Meeting& meeting(Clique& clique, const MeetingKey& key) {
    Meeting& m = clique.meetings[key];
    if (m.parts.empty()) {
        m.parts.resize(key.from < 0 ? static_cast<std::size_t>(clique.size) : 2);
    }
    return m;
}

void fail(Meeting& m, const std::string& why) {
    if (m.failure.empty()) {
        m.failure = why;
    }
}

// Whether `arriving` asks what the calls already there ask; the failure otherwise.
void check_match(Meeting& m, const MeetingKey& key, const Call& arriving) {
    for (const Part& part : m.parts) {
        const Call* other = part.call;
        if (other == nullptr || other == &arriving) {
            continue;
        }
        const bool transfer = key.from >= 0;
        const bool same = other->buffers.count == arriving.buffers.count &&
                          other->buffers.type == arriving.buffers.type &&
                          (transfer || (other->kind == arriving.kind &&
                                        (!reduces(other->kind) || other->op == arriving.op) &&
                                        (!rooted(other->kind) || other->root == arriving.root)));
        if (!same) {
            fail(m, "the ranks disagree on " + meeting_name(key) + ": rank " +
                        std::to_string(rank_of(key, arriving.part)) + " calls " +
                        describe(arriving) + ", rank " +
                        std::to_string(
                            rank_of(key, static_cast<std::size_t>(&part - m.parts.data()))) +
                        " " + describe(*other));
        }
        return;
    }
}

// A rank the meeting needs has left, and no performance can start any more.
void check_members(Meeting& m, const MeetingKey& key, const Clique& clique) {
    for (std::size_t part = 0; part < m.parts.size(); ++part) {
        const auto rank = static_cast<std::size_t>(rank_of(key, part));
        if (!clique.gone[rank].empty()) {
            fail(m, "rank " + std::to_string(rank) + " left the communicator before " +
                        meeting_name(key) + " ended: " + clique.gone[rank]);
        }
    }
}

// ---- The operations, done by the last rank to arrive for every rank ----

template <class T, class F>
T combine(T a, T b, F f) {
    if constexpr (std::is_same_v<T, half>) {
        return half(f(static_cast<float>(a), static_cast<float>(b)));
    } else {
        return static_cast<T>(f(a, b));
    }
}

// avg's division by the rank count, in the element type (integers truncate, as NCCL's).
template <class T>
T divided(T value, int ranks) {
    if constexpr (std::is_same_v<T, half>) {
        return half(static_cast<float>(value) / static_cast<float>(ranks));
    } else {
        return static_cast<T>(value / static_cast<T>(ranks));
    }
}

// Elements [0, count) of every input reduced into every output, a chunk at a time: a chunk of
// every input is read before that chunk of any output is written, so an output may be its input.
struct Reduction {
    std::vector<const std::byte*> inputs;
    std::vector<std::byte*> outputs;
    std::size_t count = 0;
    int ranks = 0;
    bool average = false;
};

template <class T, class F>
void reduce_elements(const Reduction& r, F f) {
    constexpr std::size_t chunk = 2048;
    std::vector<T> acc(std::min(r.count, chunk));
    for (std::size_t first = 0; first < r.count; first += chunk) {
        const std::size_t n = std::min(chunk, r.count - first);
        std::memcpy(acc.data(), r.inputs.front() + first * sizeof(T), n * sizeof(T));
        for (std::size_t i = 1; i < r.inputs.size(); ++i) {
            const auto* x = reinterpret_cast<const T*>(r.inputs[i]) + first;
            for (std::size_t j = 0; j < n; ++j) {
                acc[j] = combine(acc[j], x[j], f);
            }
        }
        if (r.average) {
            for (std::size_t j = 0; j < n; ++j) {
                acc[j] = divided(acc[j], r.ranks);
            }
        }
        for (std::byte* out : r.outputs) {
            std::memcpy(out + first * sizeof(T), acc.data(), n * sizeof(T));
        }
    }
}

template <class T>
void reduce_as(const Reduction& r, ReduceOp op) {
    switch (op) {
        case ReduceOp::sum:
        case ReduceOp::avg:
            return reduce_elements<T>(r, std::plus<>{});
        case ReduceOp::prod:
            return reduce_elements<T>(r, std::multiplies<>{});
        case ReduceOp::max:
            return reduce_elements<T>(r, [](auto a, auto b) { return a < b ? b : a; });
        case ReduceOp::min:
            return reduce_elements<T>(r, [](auto a, auto b) { return b < a ? b : a; });
    }
}

void reduce(const Reduction& r, WireType type, ReduceOp op) {
    switch (type) {
        case WireType::int8:
            return reduce_as<std::int8_t>(r, op);
        case WireType::uint8:
            return reduce_as<std::uint8_t>(r, op);
        case WireType::int32:
            return reduce_as<std::int32_t>(r, op);
        case WireType::uint32:
            return reduce_as<std::uint32_t>(r, op);
        case WireType::int64:
            return reduce_as<std::int64_t>(r, op);
        case WireType::uint64:
            return reduce_as<std::uint64_t>(r, op);
        case WireType::float16:
            return reduce_as<half>(r, op);
        case WireType::float32:
            return reduce_as<float>(r, op);
        case WireType::float64:
            return reduce_as<double>(r, op);
    }
}

bool overlap(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
    const auto* x = static_cast<const std::byte*>(a);
    const auto* y = static_cast<const std::byte*>(b);
    return x < y + b_bytes && y < x + a_bytes;
}

void copy(void* to, const void* from, std::size_t bytes) {
    if (to != from) {
        std::memmove(to, from, bytes);
    }
}

// Every rank's part of a meeting whose calls have all arrived and agree.
void perform(const Meeting& m, int ranks) {
    const auto call = [&m](std::size_t part) -> const Call& { return *m.parts[part].call; };
    const auto send = [&](std::size_t part) {
        return static_cast<const std::byte*>(call(part).buffers.send);
    };
    const auto receive = [&](std::size_t part) {
        return static_cast<std::byte*>(call(part).buffers.receive);
    };
    const Call& first = call(0);
    const std::size_t count = first.buffers.count;
    const std::size_t bytes = count * wire_size(first.buffers.type);
    const auto root = static_cast<std::size_t>(first.root);
    const std::size_t parts = m.parts.size();
    Reduction r;
    r.count = count;
    r.ranks = ranks;
    r.average = first.op == ReduceOp::avg;
    switch (first.kind) {
        case Kind::all_reduce:
        case Kind::reduce:
            for (std::size_t p = 0; p < parts; ++p) {
                r.inputs.push_back(send(p));
                if (first.kind == Kind::all_reduce || p == root) {
                    r.outputs.push_back(receive(p));
                }
            }
            return reduce(r, first.buffers.type, first.op);
        case Kind::reduce_scatter: {
            // Block b of the reduction to rank b. In place, rank b's output is block b of its
            // input; an input that overlaps its output otherwise is read from a copy.
            std::vector<std::vector<std::byte>> staged(parts);
            for (std::size_t p = 0; p < parts; ++p) {
                if (receive(p) != send(p) + p * bytes &&
                    overlap(send(p), bytes * parts, receive(p), bytes)) {
                    staged[p].assign(send(p), send(p) + bytes * parts);
                }
            }
            for (std::size_t b = 0; b < parts; ++b) {
                r.inputs.clear();
                for (std::size_t p = 0; p < parts; ++p) {
                    r.inputs.push_back((staged[p].empty() ? send(p) : staged[p].data()) +
                                       b * bytes);
                }
                r.outputs = {receive(b)};
                reduce(r, first.buffers.type, first.op);
            }
            return;
        }
        case Kind::broadcast:
            for (std::size_t p = 0; p < parts; ++p) {
                copy(receive(p), send(root), bytes);
            }
            return;
        case Kind::all_gather:
            // In place, rank p's input is block p of its output, which no copy writes.
            for (std::size_t to = 0; to < parts; ++to) {
                for (std::size_t from = 0; from < parts; ++from) {
                    copy(receive(to) + from * bytes, send(from), bytes);
                }
            }
            return;
        case Kind::send:
        case Kind::recv:
            copy(receive(1), send(0), bytes);
            return;
    }
}

// ---- Tasks ----

std::atomic<std::uint64_t> tasks_made{0};

// Posts `call` at its meeting; the last to arrive performs the meeting for every rank.
void arrive(Call& call) {
    Clique& clique = *call.member->clique;
    std::unique_lock lock(clique.mutex);
    Meeting& m = meeting(clique, call.key);
    Part& part = m.parts[call.part];
    ++m.arrived;
    check_members(m, call.key, clique);
    if (!m.failure.empty()) {
        return;
    }
    part.call = &call;
    check_match(m, call.key, call);
    if (!m.failure.empty() || m.arrived < m.parts.size()) {
        return;
    }
    m.performing = true;
    lock.unlock();
    std::string failure;
    try {
        perform(m, clique.size);
    } catch (const std::exception& e) {
        failure = e.what();
    }
    lock.lock();
    m.performing = false;
    if (failure.empty()) {
        m.done = true;
    } else {
        fail(m, failure);
    }
    clique.changed.notify_all();
}

// Waits until `call`'s meeting is done, or has failed (a rank left or disagreed), and leaves it.
void leave(Call& call) {
    Clique& clique = *call.member->clique;
    std::unique_lock lock(clique.mutex);
    Meeting& m = clique.meetings.at(call.key);
    clique.changed.wait(lock, [&] {
        if (!m.done) {
            check_members(m, call.key, clique);
        }
        return m.done || (!m.failure.empty() && !m.performing);
    });
    m.parts[call.part].call = nullptr;
    Member& member = *call.member;
    if (!m.done && member.error.empty()) {
        member.error = m.failure;
    }
    --member.in_flight;
    // A failed meeting stays, so that ranks arriving later fail too.
    if (m.done && ++m.left == m.parts.size()) {
        clique.meetings.erase(call.key);
    }
}

// A task: posts every call before waiting for any, as a group's sends and receives need.
void run(std::vector<Call>& calls) noexcept {
    for (Call& call : calls) {
        arrive(call);
    }
    for (Call& call : calls) {
        leave(call);
    }
}

// Two calls of one meeting queued, in different tasks, on one queue.
std::string same_queue(const MeetingKey& key, int first, int second, const Call& call,
                       const QueueId& queue) {
    const std::string who =
        first == second
            ? "rank " + std::to_string(first) + " queued both parts of "
            : "ranks " + std::to_string(first) + " and " + std::to_string(second) + " queued ";
    return who + meeting_name(key) + " (" + kind_name(call.kind) + ") on " + queue_name(queue) +
           " in separate tasks, and the first would wait forever for the second queued behind "
           "it: give each rank a stream of its own (kiln::Stream; host devices share their "
           "default streams), or make the calls from one thread inside one Group";
}

// Queues `calls` as one task on `stream`. Two tasks holding one meeting on one queue would wait
// for each other forever (the first blocks the queue waiting for the second behind it): their
// meeting fails at once instead.
void launch(NativeStream stream, std::vector<Call> calls) {
    const std::uint64_t task = ++tasks_made;
    const QueueId queue = queue_of(stream);
    for (const Call& call : calls) {
        Clique& clique = *call.member->clique;
        const std::scoped_lock lock(clique.mutex);
        Meeting& m = meeting(clique, call.key);
        for (std::size_t p = 0; p < m.parts.size(); ++p) {
            const Part& other = m.parts[p];
            if (other.task != 0 && other.task != task && other.queue == queue && !m.done) {
                fail(m, same_queue(call.key, rank_of(call.key, p), rank_of(call.key, call.part),
                                   call, queue));
            }
        }
        m.parts[call.part].queue = queue;
        m.parts[call.part].task = task;
        clique.changed.notify_all();
    }
    auto shared = std::make_shared<std::vector<Call>>(std::move(calls));
    try {
        backend().launch_host_func(StreamView{stream}, [shared] { run(*shared); });
    } catch (const std::exception& e) {
        // The peers stop waiting for calls that will never run.
        for (const Call& call : *shared) {
            Clique& clique = *call.member->clique;
            {
                const std::scoped_lock lock(clique.mutex);
                fail(meeting(clique, call.key), "rank " + std::to_string(call.member->rank) +
                                                    " could not queue its call: " + e.what());
                --call.member->in_flight;
            }
            clique.changed.notify_all();
        }
        throw;
    }
}

// The calling thread's open groups: their depth and their calls, with their streams.
struct OpenGroup {
    int depth = 0;
    std::vector<std::pair<NativeStream, Call>> calls;
};
thread_local OpenGroup open_group;

// Numbers `call` among its communicator's calls (in the order the program makes them, which is
// how the ranks' calls meet), then queues it or keeps it for the open group.
Progress submit(NativeCommunicator comm, Call call, NativeStream stream) {
    call.member = static_cast<Handle*>(comm)->member;
    Member& member = *call.member;
    {
        const std::scoped_lock lock(member.clique->mutex);
        const auto peer = static_cast<std::size_t>(call.root);
        switch (call.kind) {
            case Kind::send:
                call.key = {member.rank, call.root, member.sent.at(peer)++};
                call.part = 0;
                break;
            case Kind::recv:
                call.key = {call.root, member.rank, member.received.at(peer)++};
                call.part = 1;
                break;
            default:
                call.key = {-1, -1, member.collectives++};
                call.part = static_cast<std::size_t>(member.rank);
                break;
        }
        ++member.in_flight;
    }
    if (open_group.depth > 0) {
        open_group.calls.emplace_back(stream, std::move(call));
        return Progress::done;
    }
    std::vector<Call> one;
    one.push_back(std::move(call));
    launch(stream, std::move(one));
    return Progress::done;
}

Call make(Kind kind, const WireBuffers& b, ReduceOp op = ReduceOp::sum, int root = 0) {
    Call call;
    call.kind = kind;
    call.buffers = b;
    call.op = op;
    call.root = root;
    return call;
}

// Marks `rank` as gone (`why`), which fails the meetings still waiting for it.
void depart(Member& member, const std::string& why) {
    Clique& clique = *member.clique;
    {
        const std::scoped_lock lock(clique.mutex);
        auto& gone = clique.gone[static_cast<std::size_t>(member.rank)];
        if (gone.empty()) {
            gone = why;
        }
    }
    clique.changed.notify_all();
}

}  // namespace

bool InProcessCollectives::knows(const distributed::UniqueId& id) {
    const std::scoped_lock lock(mutex_);
    return std::any_of(gathering_.begin(), gathering_.end(),
                       [&](const Gathering& g) { return g.id == id; });
}

distributed::UniqueId InProcessCollectives::unique_id() {
    distributed::UniqueId id;
    std::random_device entropy;
    for (std::size_t i = 0; i < 16; ++i) {
        id.bytes.at(i) = static_cast<std::byte>(entropy());
    }
    const std::scoped_lock lock(mutex_);
    // A count after the random bytes keeps this process's ids apart whatever the entropy.
    const std::uint64_t made = ++ids_made_;
    std::memcpy(&id.bytes.at(16), &made, sizeof(made));
    gathering_.push_back({id, {}});
    return id;
}

NativeCommunicator InProcessCollectives::init(const distributed::UniqueId& id, int rank, int size) {
    const int device = current_device();
    std::shared_ptr<Clique> clique;
    {
        const std::scoped_lock lock(mutex_);
        const auto found = std::find_if(gathering_.begin(), gathering_.end(),
                                        [&](const Gathering& g) { return g.id == id; });
        if (found == gathering_.end()) {
            throw Error(
                "kiln: Communicator: the id was not made in this process (or all of its ranks "
                "have joined already); the host backend's ranks in several processes meet "
                "through MPI: make the communicator with kiln::distributed::from_mpi "
                "(kiln/distributed/mpi.hpp)");
        }
        clique = found->clique.lock();
        if (!clique) {
            clique = std::make_shared<Clique>(size);
            found->clique = clique;
        }
        const std::scoped_lock joining(clique->mutex);
        const std::string who = "kiln: Communicator: rank " + std::to_string(rank) + " ";
        if (clique->size != size) {
            throw ValueError(who + "joins with size " + std::to_string(size) +
                             " but the ranks that joined before it gave size " +
                             std::to_string(clique->size));
        }
        if (clique->devices[static_cast<std::size_t>(rank)] >= 0) {
            throw ValueError(who + "has joined already: each rank joins once");
        }
        const auto taken = std::find(clique->devices.begin(), clique->devices.end(), device);
        if (taken != clique->devices.end()) {
            throw ValueError(who + "joins on host device " + std::to_string(device) +
                             ", where rank " + std::to_string(taken - clique->devices.begin()) +
                             " is already: one rank per device (NCCL forbids two ranks of a "
                             "communicator on one device)");
        }
        clique->devices[static_cast<std::size_t>(rank)] = device;
        if (++clique->joined == size) {
            gathering_.erase(found);  // the id is spent
        }
    }
    clique->changed.notify_all();
    auto member = std::make_shared<Member>();
    member->clique = std::move(clique);
    member->rank = rank;
    member->sent.resize(static_cast<std::size_t>(size));
    member->received.resize(static_cast<std::size_t>(size));
    return new Handle{std::move(member)};
}

CommunicatorStatus InProcessCollectives::status(NativeCommunicator comm) {
    if (comm == nullptr) {
        return {};
    }
    const Member& member = member_of(comm);
    Clique& clique = *member.clique;
    const std::scoped_lock lock(clique.mutex);
    if (!member.error.empty()) {
        return {Progress::done, member.error};
    }
    if (clique.joined < clique.size) {
        for (std::size_t rank = 0; rank < clique.gone.size(); ++rank) {
            if (!clique.gone[rank].empty()) {
                return {Progress::done, "rank " + std::to_string(rank) +
                                            " left before every rank joined: " + clique.gone[rank]};
            }
        }
        return {Progress::in_progress, {}};
    }
    return {member.in_flight == 0 ? Progress::done : Progress::in_progress, {}};
}

Progress InProcessCollectives::finalize(NativeCommunicator comm) {
    const Member& member = member_of(comm);
    const std::scoped_lock lock(member.clique->mutex);
    return member.in_flight == 0 ? Progress::done : Progress::in_progress;
}

void InProcessCollectives::destroy(NativeCommunicator comm) {
    const std::unique_ptr<Handle> handle(static_cast<Handle*>(comm));
    depart(*handle->member, "its communicator was destroyed");
}

void InProcessCollectives::abort(NativeCommunicator comm) noexcept {
    if (comm == nullptr) {
        return;
    }
    const std::unique_ptr<Handle> handle(static_cast<Handle*>(comm));
    try {
        depart(*handle->member, "its communicator was aborted");
    } catch (...) {  // NOLINT(bugprone-empty-catch): only allocating the reason can throw
    }
}

Progress InProcessCollectives::all_reduce(NativeCommunicator comm, const WireBuffers& b,
                                          ReduceOp op, NativeStream stream) {
    return submit(comm, make(Kind::all_reduce, b, op), stream);
}

Progress InProcessCollectives::reduce(NativeCommunicator comm, const WireBuffers& b, ReduceOp op,
                                      int root, NativeStream stream) {
    return submit(comm, make(Kind::reduce, b, op, root), stream);
}

Progress InProcessCollectives::broadcast(NativeCommunicator comm, const WireBuffers& b, int root,
                                         NativeStream stream) {
    return submit(comm, make(Kind::broadcast, b, ReduceOp::sum, root), stream);
}

Progress InProcessCollectives::all_gather(NativeCommunicator comm, const WireBuffers& b,
                                          NativeStream stream) {
    return submit(comm, make(Kind::all_gather, b), stream);
}

Progress InProcessCollectives::reduce_scatter(NativeCommunicator comm, const WireBuffers& b,
                                              ReduceOp op, NativeStream stream) {
    return submit(comm, make(Kind::reduce_scatter, b, op), stream);
}

Progress InProcessCollectives::send(NativeCommunicator comm, const WireBuffers& b, int peer,
                                    NativeStream stream) {
    return submit(comm, make(Kind::send, b, ReduceOp::sum, peer), stream);
}

Progress InProcessCollectives::recv(NativeCommunicator comm, const WireBuffers& b, int peer,
                                    NativeStream stream) {
    return submit(comm, make(Kind::recv, b, ReduceOp::sum, peer), stream);
}

void InProcessCollectives::group_start() {
    ++open_group.depth;
}

// The group's calls run as one task on the stream of its first call, which posts all of them
// before waiting for any: one thread may hold every rank of a meeting. The other streams' prior
// work comes before the task, and their later work after it, through events.
Progress InProcessCollectives::group_end() {
    if (open_group.depth == 0 || --open_group.depth > 0) {
        return Progress::done;
    }
    auto calls = std::exchange(open_group.calls, {});
    if (calls.empty()) {
        return Progress::done;
    }
    // Each stream with the device of the rank whose call names it: events are their device's.
    std::vector<StreamView> streams;
    std::vector<Call> task;
    for (auto& [stream, call] : calls) {
        const Member& member = *call.member;
        streams.emplace_back(stream,
                             member.clique->devices.at(static_cast<std::size_t>(member.rank)));
        task.push_back(std::move(call));
    }
    launch_joined(streams.front(), streams,
                  [&task](StreamView first) { launch(first.native(), std::move(task)); });
    return Progress::done;
}

}  // namespace kiln::detail::host
