// What a backend offers kiln::distributed: one library of collectives (NCCL, RCCL), reached
// through this interface so that the core never includes a vendor header. The core checks the
// arguments and turns dtypes into wire types (wire_call.hpp); a backend only forwards the calls.
#pragma once

#include <kiln/distributed/communicator.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace kiln::detail {

using NativeCommunicator = void*;
using NativeStream = void*;

// The element types NCCL and RCCL reduce and move, by kiln's names for them.
enum class WireType : std::uint8_t {
    int8,
    uint8,
    int32,
    uint32,
    int64,
    uint64,
    float16,
    float32,
    float64
};

// The bytes of one element of `type`.
[[nodiscard]] constexpr std::size_t wire_size(WireType type) {
    switch (type) {
        case WireType::int8:
        case WireType::uint8:
            return 1;
        case WireType::float16:
            return 2;
        case WireType::int32:
        case WireType::uint32:
        case WireType::float32:
            return 4;
        case WireType::int64:
        case WireType::uint64:
        case WireType::float64:
            return 8;
    }
    return 1;
}

// Where a call that the library may finish in the background (non-blocking mode) stands.
enum class Progress : std::uint8_t { done, in_progress };

// A communicator's state as the library reports it (ncclCommGetAsyncError).
struct CommunicatorStatus {
    Progress progress = Progress::done;
    std::string error;  // "" unless the communicator failed: the library's text
};

// One pointer-level transfer: what the core hands a backend after its checks.
struct WireBuffers {
    const void* send = nullptr;
    void* receive = nullptr;
    std::size_t count = 0;  // elements of `type`, as the operation counts them
    WireType type = WireType::uint8;
};

class Collectives {
public:
    Collectives() = default;
    Collectives(const Collectives&) = delete;
    Collectives& operator=(const Collectives&) = delete;
    Collectives(Collectives&&) = delete;
    Collectives& operator=(Collectives&&) = delete;
    virtual ~Collectives() = default;

    // The library's name ("NCCL") and why it cannot be used ("" when it loaded).
    [[nodiscard]] virtual std::string library_name() = 0;
    [[nodiscard]] virtual std::string unavailable_reason() = 0;

    [[nodiscard]] virtual distributed::UniqueId unique_id() = 0;
    // Starts joining a communicator on the current device in non-blocking mode; status() says
    // when it is ready.
    [[nodiscard]] virtual NativeCommunicator init(const distributed::UniqueId& id, int rank,
                                                  int size) = 0;
    [[nodiscard]] virtual CommunicatorStatus status(NativeCommunicator comm) = 0;
    // Flushes the communicator's work (then status() says when it is quiet), and frees it.
    [[nodiscard]] virtual Progress finalize(NativeCommunicator comm) = 0;
    virtual void destroy(NativeCommunicator comm) = 0;
    virtual void abort(NativeCommunicator comm) noexcept = 0;

    [[nodiscard]] virtual Progress all_reduce(NativeCommunicator comm, const WireBuffers& b,
                                              distributed::ReduceOp op, NativeStream stream) = 0;
    [[nodiscard]] virtual Progress reduce(NativeCommunicator comm, const WireBuffers& b,
                                          distributed::ReduceOp op, int root,
                                          NativeStream stream) = 0;
    [[nodiscard]] virtual Progress broadcast(NativeCommunicator comm, const WireBuffers& b,
                                             int root, NativeStream stream) = 0;
    // `b.count` is each rank's part: the elements sent (all_gather), received (reduce_scatter).
    [[nodiscard]] virtual Progress all_gather(NativeCommunicator comm, const WireBuffers& b,
                                              NativeStream stream) = 0;
    [[nodiscard]] virtual Progress reduce_scatter(NativeCommunicator comm, const WireBuffers& b,
                                                  distributed::ReduceOp op,
                                                  NativeStream stream) = 0;
    [[nodiscard]] virtual Progress send(NativeCommunicator comm, const WireBuffers& b, int peer,
                                        NativeStream stream) = 0;
    [[nodiscard]] virtual Progress recv(NativeCommunicator comm, const WireBuffers& b, int peer,
                                        NativeStream stream) = 0;

    // The calling thread's group (ncclGroupStart/End); end() may finish in the background.
    virtual void group_start() = 0;
    [[nodiscard]] virtual Progress group_end() = 0;
};

}  // namespace kiln::detail
