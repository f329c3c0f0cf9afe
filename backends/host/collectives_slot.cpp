#include "collectives_slot.hpp"

#include "in_process_collectives.hpp"

#include <atomic>
#include <exception>
#include <memory>

namespace kiln::detail::host {

namespace {

// Routes each communicator to the library that made it: a handle is the library and its own
// handle. Groups are the calling thread's, whatever the library: both open and end them.
class HostCollectives final : public Collectives {
public:
    void install(Collectives& between_processes) {
        between_processes_.store(&between_processes, std::memory_order_release);
    }

    [[nodiscard]] std::string library_name() override { return "the host backend's collectives"; }
    [[nodiscard]] std::string unavailable_reason() override { return ""; }
    [[nodiscard]] distributed::UniqueId unique_id() override { return in_process_.unique_id(); }

    // An id made here is in-process; any other is MPI's, when installed (or in-process's refusal,
    // which names from_mpi).
    [[nodiscard]] NativeCommunicator init(const distributed::UniqueId& id, int rank,
                                          int size) override {
        Collectives* library = between_processes();
        if (library == nullptr || in_process_.knows(id)) {
            library = &in_process_;
        }
        auto routed = std::make_unique<Routed>(Routed{library, nullptr});
        routed->comm = library->init(id, rank, size);
        return routed.release();
    }
    [[nodiscard]] CommunicatorStatus status(NativeCommunicator comm) override {
        if (comm == nullptr) {
            return {};
        }
        return library(comm).status(native(comm));
    }
    [[nodiscard]] Progress finalize(NativeCommunicator comm) override {
        return library(comm).finalize(native(comm));
    }
    void destroy(NativeCommunicator comm) override {
        const std::unique_ptr<Routed> routed(static_cast<Routed*>(comm));
        routed->library->destroy(routed->comm);
    }
    void abort(NativeCommunicator comm) noexcept override {
        if (comm != nullptr) {
            const std::unique_ptr<Routed> routed(static_cast<Routed*>(comm));
            routed->library->abort(routed->comm);
        }
    }

    [[nodiscard]] Progress all_reduce(NativeCommunicator comm, const WireBuffers& b,
                                      distributed::ReduceOp op, NativeStream stream) override {
        return library(comm).all_reduce(native(comm), b, op, stream);
    }
    [[nodiscard]] Progress reduce(NativeCommunicator comm, const WireBuffers& b,
                                  distributed::ReduceOp op, int root,
                                  NativeStream stream) override {
        return library(comm).reduce(native(comm), b, op, root, stream);
    }
    [[nodiscard]] Progress broadcast(NativeCommunicator comm, const WireBuffers& b, int root,
                                     NativeStream stream) override {
        return library(comm).broadcast(native(comm), b, root, stream);
    }
    [[nodiscard]] Progress all_gather(NativeCommunicator comm, const WireBuffers& b,
                                      NativeStream stream) override {
        return library(comm).all_gather(native(comm), b, stream);
    }
    [[nodiscard]] Progress reduce_scatter(NativeCommunicator comm, const WireBuffers& b,
                                          distributed::ReduceOp op, NativeStream stream) override {
        return library(comm).reduce_scatter(native(comm), b, op, stream);
    }
    [[nodiscard]] Progress send(NativeCommunicator comm, const WireBuffers& b, int peer,
                                NativeStream stream) override {
        return library(comm).send(native(comm), b, peer, stream);
    }
    [[nodiscard]] Progress recv(NativeCommunicator comm, const WireBuffers& b, int peer,
                                NativeStream stream) override {
        return library(comm).recv(native(comm), b, peer, stream);
    }

    void group_start() override {
        in_process_.group_start();
        if (Collectives* library = between_processes()) {
            library->group_start();
        }
    }
    // Ends both groups even when one fails, so that neither stays open; the first failure is
    // rethrown.
    [[nodiscard]] Progress group_end() override {
        std::exception_ptr failure;
        Progress progress = Progress::done;
        const auto end = [&](Collectives& library) {
            try {
                if (library.group_end() == Progress::in_progress) {
                    progress = Progress::in_progress;
                }
            } catch (...) {
                if (!failure) {
                    failure = std::current_exception();
                }
            }
        };
        end(in_process_);
        if (Collectives* library = between_processes()) {
            end(*library);
        }
        if (failure) {
            std::rethrow_exception(failure);
        }
        return progress;
    }

private:
    struct Routed {
        Collectives* library;
        NativeCommunicator comm;
    };

    static Collectives& library(NativeCommunicator comm) {
        return *static_cast<Routed*>(comm)->library;
    }
    static NativeCommunicator native(NativeCommunicator comm) {
        return static_cast<Routed*>(comm)->comm;
    }
    [[nodiscard]] Collectives* between_processes() const {
        return between_processes_.load(std::memory_order_acquire);
    }

    InProcessCollectives in_process_;
    std::atomic<Collectives*> between_processes_{nullptr};
};

// Never destroyed: communicators may be finalized after main returns.
HostCollectives& host_collectives() {
    static auto& collectives = *new HostCollectives();
    return collectives;
}

}  // namespace

void install_collectives(Collectives& library) {
    host_collectives().install(library);
}

Collectives& installed_collectives() {
    return host_collectives();
}

}  // namespace kiln::detail::host
