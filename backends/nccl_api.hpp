// The part of NCCL's API that kiln calls, declared here so that kiln builds without NCCL's or
// RCCL's headers (RCCL keeps NCCL's names, types and values). The values are NCCL's; the config
// is NCCL 2.14's layout, which later versions still accept: a library reads as many fields as the
// size and version say. The stream parameter is the vendor's stream handle, a pointer either way.
#pragma once

#include <climits>
#include <cstddef>

extern "C" {

using ncclComm_t = struct ncclComm*;

struct ncclUniqueId {
    char internal[128];  // NOLINT(*-avoid-c-arrays): NCCL's layout
};

enum ncclResult_t : int {
    ncclSuccess = 0,
    ncclUnhandledCudaError = 1,
    ncclSystemError = 2,
    ncclInternalError = 3,
    ncclInvalidArgument = 4,
    ncclInvalidUsage = 5,
    ncclRemoteError = 6,
    ncclInProgress = 7,
};

enum ncclRedOp_t : int { ncclSum = 0, ncclProd = 1, ncclMax = 2, ncclMin = 3, ncclAvg = 4 };

enum ncclDataType_t : int {
    ncclInt8 = 0,
    ncclUint8 = 1,
    ncclInt32 = 2,
    ncclUint32 = 3,
    ncclInt64 = 4,
    ncclUint64 = 5,
    ncclFloat16 = 6,
    ncclFloat32 = 7,
    ncclFloat64 = 8,
};

struct ncclConfig_t {
    std::size_t size;
    unsigned int magic;
    unsigned int version;
    int blocking;
    int cgaClusterSize;
    int minCTAs;
    int maxCTAs;
    const char* netName;
};

ncclResult_t ncclGetUniqueId(ncclUniqueId* id);
ncclResult_t ncclCommInitRankConfig(ncclComm_t* comm, int nranks, ncclUniqueId id, int rank,
                                    ncclConfig_t* config);
ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t* async_error);
ncclResult_t ncclCommFinalize(ncclComm_t comm);
ncclResult_t ncclCommDestroy(ncclComm_t comm);
ncclResult_t ncclCommAbort(ncclComm_t comm);
const char* ncclGetErrorString(ncclResult_t result);
const char* ncclGetLastError(ncclComm_t comm);
ncclResult_t ncclAllReduce(const void* send, void* recv, std::size_t count, ncclDataType_t type,
                           ncclRedOp_t op, ncclComm_t comm, void* stream);
ncclResult_t ncclReduce(const void* send, void* recv, std::size_t count, ncclDataType_t type,
                        ncclRedOp_t op, int root, ncclComm_t comm, void* stream);
ncclResult_t ncclBroadcast(const void* send, void* recv, std::size_t count, ncclDataType_t type,
                           int root, ncclComm_t comm, void* stream);
ncclResult_t ncclAllGather(const void* send, void* recv, std::size_t count, ncclDataType_t type,
                           ncclComm_t comm, void* stream);
ncclResult_t ncclReduceScatter(const void* send, void* recv, std::size_t count, ncclDataType_t type,
                               ncclRedOp_t op, ncclComm_t comm, void* stream);
ncclResult_t ncclSend(const void* send, std::size_t count, ncclDataType_t type, int peer,
                      ncclComm_t comm, void* stream);
ncclResult_t ncclRecv(void* recv, std::size_t count, ncclDataType_t type, int peer, ncclComm_t comm,
                      void* stream);
ncclResult_t ncclGroupStart();
ncclResult_t ncclGroupEnd();

}  // extern "C"

namespace kiln::detail {

// NCCL_CONFIG_INITIALIZER for the layout above, non-blocking: calls may return ncclInProgress,
// and ncclCommGetAsyncError says when they are done, so a peer that never arrives cannot hang
// the caller.
inline ncclConfig_t non_blocking_config() {
    constexpr unsigned int magic = 0xcafebeef;
    constexpr unsigned int version_2_14_3 = 21403;  // NCCL_VERSION(2, 14, 3)
    return {sizeof(ncclConfig_t), magic, version_2_14_3, 0, INT_MIN, INT_MIN, INT_MIN, nullptr};
}

}  // namespace kiln::detail
