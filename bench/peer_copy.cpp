#include "peer_copy.hpp"

#include <kiln/config.hpp>
#include <kiln/error.hpp>
#include <kiln/stream.hpp>

#include <dlfcn.h>

#include <cstdint>
#include <cstring>

namespace kiln::bench {

namespace {

void* open(const char* library) {
    // Never closed: the copies may be queued until the process ends.
    void* handle = ::dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        throw Error(std::string("kiln-bench: peer copy: cannot open ") + library);
    }
    return handle;
}

template <class F>
F symbol(void* library, const char* name) {
    void* found = ::dlsym(library, name);
    if (found == nullptr) {
        throw Error(std::string("kiln-bench: peer copy: no symbol ") + name);
    }
    return reinterpret_cast<F>(found);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
}

void check(int rc, const std::string& call) {
    if (rc != 0) {
        throw Error("kiln-bench: peer copy: " + call + " returned " + std::to_string(rc));
    }
}

// cuMemcpyPeerAsync names each side's context: the devices' primary contexts, which the runtime
// (and so kiln) uses. Retained for the process, as the runtime keeps them.
std::function<int(void*, const void*, std::size_t, void*)> cuda_copy(int target, int source) {
    void* library = open("libcuda.so.1");
    using Init = int (*)(unsigned);
    using DeviceGet = int (*)(int*, int);
    using Retain = int (*)(void**, int);
    using Copy = int (*)(std::uintptr_t, void*, std::uintptr_t, void*, std::size_t, void*);
    check(symbol<Init>(library, "cuInit")(0), "cuInit");
    const auto device_get = symbol<DeviceGet>(library, "cuDeviceGet");
    const auto retain = symbol<Retain>(library, "cuDevicePrimaryCtxRetain");
    const auto context = [&](int ordinal) {
        int device = 0;
        void* primary = nullptr;
        check(device_get(&device, ordinal), "cuDeviceGet");
        check(retain(&primary, device), "cuDevicePrimaryCtxRetain");
        return primary;
    };
    void* target_context = context(target);
    void* source_context = context(source);
    const auto copy = symbol<Copy>(library, "cuMemcpyPeerAsync");
    return [=](void* dst, const void* src, std::size_t bytes, void* stream) {
        return copy(reinterpret_cast<std::uintptr_t>(dst), target_context,
                    reinterpret_cast<std::uintptr_t>(src), source_context, bytes, stream);
    };
}

std::function<int(void*, const void*, std::size_t, void*)> hip_copy(int target, int source) {
    using Copy = int (*)(void*, int, const void*, int, std::size_t, void*);
    const auto copy = symbol<Copy>(open("libamdhip64.so"), "hipMemcpyPeerAsync");
    return [=](void* dst, const void* src, std::size_t bytes, void* stream) {
        return copy(dst, target, src, source, bytes, stream);
    };
}

}  // namespace

PeerCopy::PeerCopy(BackendKind backend, int target, int source) {
    // HIP's NVIDIA platform runs on CUDA's driver.
    if (backend == BackendKind::cuda || (backend == BackendKind::hip && KILN_HIP_NVIDIA != 0)) {
        name_ = "cuMemcpyPeerAsync";
        copy_ = cuda_copy(target, source);
    } else if (backend == BackendKind::hip) {
        name_ = "hipMemcpyPeerAsync";
        copy_ = hip_copy(target, source);
    } else {
        name_ = "memcpy";
        copy_ = [](void* dst, const void* src, std::size_t bytes, void* stream) {
            launch_host_func(StreamView(stream), [=] { std::memcpy(dst, src, bytes); });
            return 0;
        };
    }
}

void PeerCopy::operator()(void* dst, const void* src, std::size_t bytes, StreamView stream) const {
    check(copy_(dst, src, bytes, stream.native()), name_);
}

}  // namespace kiln::bench
