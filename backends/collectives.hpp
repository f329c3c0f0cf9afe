// kiln::distributed's calls over NCCL's API, shared by CUDA (NCCL) and HIP (RCCL, which keeps
// NCCL's API): the same host logic runs on both vendors, as backends/runtime.hpp does for the
// runtime. Each backend names its library in collectives.hpp; its table is NcclTable over it.
#pragma once

#include "../core/distributed/collectives.hpp"
#include "entry.hpp"
#include "nccl_api.hpp"
#include "vendor_library.hpp"

#include <cstring>
#include <string>

namespace kiln::detail {

// NCCL's entry points in `Library()`: NCCL on CUDA, RCCL on HIP's AMD platform.
template <VendorLibrary& (*Library)()>
struct NcclTable {
    static VendorLibrary& library() { return Library(); }
    static constexpr ncclResult_t success = ncclSuccess;
    static std::string error_text(ncclResult_t rc) { return get_error_string(rc); }

    KILN_ENTRY(get_error_string, ncclGetErrorString);
    KILN_ENTRY(get_last_error, ncclGetLastError);
    KILN_ENTRY(get_unique_id, ncclGetUniqueId);
    KILN_ENTRY(init_rank_config, ncclCommInitRankConfig);
    KILN_ENTRY(get_async_error, ncclCommGetAsyncError);
    KILN_ENTRY(finalize, ncclCommFinalize);
    KILN_ENTRY(destroy, ncclCommDestroy);
    KILN_ENTRY(abort, ncclCommAbort);
    KILN_ENTRY(all_reduce, ncclAllReduce);
    KILN_ENTRY(reduce, ncclReduce);
    KILN_ENTRY(broadcast, ncclBroadcast);
    KILN_ENTRY(all_gather, ncclAllGather);
    KILN_ENTRY(reduce_scatter, ncclReduceScatter);
    KILN_ENTRY(send, ncclSend);
    KILN_ENTRY(recv, ncclRecv);
    KILN_ENTRY(group_start, ncclGroupStart);
    KILN_ENTRY(group_end, ncclGroupEnd);
};

// Collectives over one NcclTable. Communicators are non-blocking (nccl_api.hpp), so a call may
// answer ncclInProgress; status() reads ncclCommGetAsyncError until it does not.
template <class Table>
class NcclCollectives final : public Collectives {
public:
    [[nodiscard]] std::string library_name() override { return Table::library().what(); }
    [[nodiscard]] std::string unavailable_reason() override { return Table::library().load(); }

    [[nodiscard]] distributed::UniqueId unique_id() override {
        ncclUniqueId native{};
        call<Table>(Table::get_unique_id, &native);
        distributed::UniqueId id;
        static_assert(sizeof(native) == sizeof(id.bytes));
        std::memcpy(id.bytes.data(), &native, sizeof(native));
        return id;
    }

    [[nodiscard]] NativeCommunicator init(const distributed::UniqueId& id, int rank,
                                          int size) override {
        ncclUniqueId native{};
        std::memcpy(&native, id.bytes.data(), sizeof(native));
        ncclConfig_t config = non_blocking_config();
        ncclComm_t comm = nullptr;
        (void)progress(Table::init_rank_config(&comm, size, native, rank, &config),
                       Table::init_rank_config.name);
        return comm;
    }

    [[nodiscard]] CommunicatorStatus status(NativeCommunicator comm) override {
        if (comm == nullptr) {
            return {};
        }
        ncclResult_t state = ncclSuccess;
        call<Table>(Table::get_async_error, native(comm), &state);
        if (state == ncclInProgress) {
            return {Progress::in_progress, {}};
        }
        if (state != ncclSuccess) {
            return {Progress::done, Table::error_text(state) + " (code " +
                                        std::to_string(static_cast<int>(state)) +
                                        "): " + Table::get_last_error(native(comm))};
        }
        return {};
    }

    [[nodiscard]] Progress finalize(NativeCommunicator comm) override {
        return progress(Table::finalize(native(comm)), Table::finalize.name);
    }
    void destroy(NativeCommunicator comm) override { call<Table>(Table::destroy, native(comm)); }
    void abort(NativeCommunicator comm) noexcept override {
        if (comm != nullptr) {
            (void)Table::abort(native(comm));
        }
    }

    [[nodiscard]] Progress all_reduce(NativeCommunicator comm, const WireBuffers& b,
                                      distributed::ReduceOp op, NativeStream stream) override {
        return progress(Table::all_reduce(b.send, b.receive, b.count, type(b.type), reduction(op),
                                          native(comm), stream),
                        Table::all_reduce.name);
    }
    [[nodiscard]] Progress reduce(NativeCommunicator comm, const WireBuffers& b,
                                  distributed::ReduceOp op, int root,
                                  NativeStream stream) override {
        return progress(Table::reduce(b.send, b.receive, b.count, type(b.type), reduction(op), root,
                                      native(comm), stream),
                        Table::reduce.name);
    }
    [[nodiscard]] Progress broadcast(NativeCommunicator comm, const WireBuffers& b, int root,
                                     NativeStream stream) override {
        return progress(
            Table::broadcast(b.send, b.receive, b.count, type(b.type), root, native(comm), stream),
            Table::broadcast.name);
    }
    [[nodiscard]] Progress all_gather(NativeCommunicator comm, const WireBuffers& b,
                                      NativeStream stream) override {
        return progress(
            Table::all_gather(b.send, b.receive, b.count, type(b.type), native(comm), stream),
            Table::all_gather.name);
    }
    [[nodiscard]] Progress reduce_scatter(NativeCommunicator comm, const WireBuffers& b,
                                          distributed::ReduceOp op, NativeStream stream) override {
        return progress(Table::reduce_scatter(b.send, b.receive, b.count, type(b.type),
                                              reduction(op), native(comm), stream),
                        Table::reduce_scatter.name);
    }
    [[nodiscard]] Progress send(NativeCommunicator comm, const WireBuffers& b, int peer,
                                NativeStream stream) override {
        return progress(Table::send(b.send, b.count, type(b.type), peer, native(comm), stream),
                        Table::send.name);
    }
    [[nodiscard]] Progress recv(NativeCommunicator comm, const WireBuffers& b, int peer,
                                NativeStream stream) override {
        return progress(Table::recv(b.receive, b.count, type(b.type), peer, native(comm), stream),
                        Table::recv.name);
    }

    void group_start() override { call<Table>(Table::group_start); }
    [[nodiscard]] Progress group_end() override {
        return progress(Table::group_end(), Table::group_end.name);
    }

private:
    static ncclComm_t native(NativeCommunicator comm) { return static_cast<ncclComm_t>(comm); }

    // ncclInProgress is no failure in non-blocking mode: the call finishes in the background.
    static Progress progress(ncclResult_t rc, const char* function) {
        if (rc == ncclInProgress) {
            return Progress::in_progress;
        }
        if (rc != ncclSuccess) {
            throw BackendError(function, static_cast<int>(rc), Table::error_text(rc));
        }
        return Progress::done;
    }

    static ncclDataType_t type(WireType type) {
        switch (type) {
            case WireType::int8:
                return ncclInt8;
            case WireType::uint8:
                return ncclUint8;
            case WireType::int32:
                return ncclInt32;
            case WireType::uint32:
                return ncclUint32;
            case WireType::int64:
                return ncclInt64;
            case WireType::uint64:
                return ncclUint64;
            case WireType::float16:
                return ncclFloat16;
            case WireType::float32:
                return ncclFloat32;
            case WireType::float64:
                return ncclFloat64;
        }
        throw Error("kiln: Communicator: no NCCL type for wire type " +
                    std::to_string(static_cast<int>(type)));
    }

    static ncclRedOp_t reduction(distributed::ReduceOp op) {
        switch (op) {
            case distributed::ReduceOp::sum:
                return ncclSum;
            case distributed::ReduceOp::prod:
                return ncclProd;
            case distributed::ReduceOp::max:
                return ncclMax;
            case distributed::ReduceOp::min:
                return ncclMin;
            case distributed::ReduceOp::avg:
                return ncclAvg;
        }
        throw Error("kiln: Communicator: no NCCL operator for ReduceOp " +
                    std::to_string(static_cast<int>(op)));
    }
};

// The backend's collectives over `Table`, made once and never destroyed (no vendor call at
// exit).
template <class Table>
Collectives& nccl_collectives() {
    static auto& collectives = *new NcclCollectives<Table>();
    return collectives;
}

}  // namespace kiln::detail
