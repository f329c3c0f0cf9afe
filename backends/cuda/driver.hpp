// CUDA driver calls from a libkiln that links no libcuda: each comes from the driver that the
// statically linked CUDA runtime loaded, which hands out its entry points. The CUDA backend
// launches through the driver (api.hpp), and HIP's NVIDIA platform forwards its driver calls here
// (hip/nvidia_functions.cpp).
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <array>
#include <atomic>
#include <cstddef>

namespace kiln::detail::cuda {

// A driver function as the CUDA headers kiln was built with declare it (cuModuleGetGlobal is
// cuModuleGetGlobal_v2 there); null when the driver has none.
template <class Function>
Function driver_function(const char* name) noexcept {
    void* address = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion(name, &address, CUDA_VERSION, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
        return nullptr;
    }
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): entry points are untyped
    return reinterpret_cast<Function>(address);
}

// The driver's calls run in the calling thread's current context. The CUDA runtime makes the
// primary context of the thread's device current at cudaSetDevice and at the thread's first
// runtime call that needs a context, but a driver call can come first (a thread that only launches
// kernels on arrays made elsewhere): a thread's first driver call sets its device again, which
// makes that context current.
inline void bind_runtime_context() noexcept {
    thread_local bool bound = false;
    if (!bound) {
        int device = 0;
        if (cudaGetDevice(&device) == cudaSuccess) {
            (void)cudaSetDevice(device);
        }
        bound = true;
    }
}

// Which runtime device a driver context is the primary context of. Each device's primary context
// is retained the first time the runtime names that device current, and never released, so its
// handle names that device for the life of the process.
class PrimaryContexts {
public:
    // The device whose primary context `context` is; -1 for any other context.
    [[nodiscard]] int device_of(CUcontext context) const noexcept {
        const int known = known_.load(std::memory_order_acquire);
        for (int device = 0; device < known; ++device) {
            if (contexts_.at(static_cast<std::size_t>(device)).load(std::memory_order_relaxed) ==
                context) {
                return device;
            }
        }
        return -1;
    }

    // Retains `device`'s primary context, once; `retain` is cuDevicePrimaryCtxRetain's forwarder.
    template <class Retain>
    void note(int device, const Retain& retain) noexcept {
        if (device < 0 || device >= capacity ||
            contexts_.at(static_cast<std::size_t>(device)).load(std::memory_order_acquire) !=
                nullptr) {
            return;
        }
        CUcontext context = nullptr;
        if (retain(&context, device) != CUDA_SUCCESS || context == nullptr) {
            return;
        }
        contexts_.at(static_cast<std::size_t>(device)).store(context, std::memory_order_release);
        int known = known_.load(std::memory_order_relaxed);
        while (known <= device &&
               !known_.compare_exchange_weak(known, device + 1, std::memory_order_release)) {
        }
    }

private:
    static constexpr int capacity = 64;  // more devices are asked of the runtime every time
    std::array<std::atomic<CUcontext>, capacity> contexts_{};
    std::atomic<int> known_{0};
};

}  // namespace kiln::detail::cuda

// The body of a function that forwards to the driver's `function`: its entry point, looked up
// once by its unversioned name, called with the arguments.
#define KILN_CALL_DRIVER(function, ...)                                          \
    ::kiln::detail::cuda::bind_runtime_context();                                \
    static const auto forward =                                                  \
        ::kiln::detail::cuda::driver_function<decltype(&(function))>(#function); \
    return forward != nullptr ? forward(__VA_ARGS__) : CUDA_ERROR_NOT_FOUND
