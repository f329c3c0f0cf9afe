// The CUDA runtime and NVRTC entry points that backends/runtime.hpp and compiler.hpp run over, and
// the driver's for run-time compiled kernels. The CUDA runtime is linked statically (it finds the
// driver itself, at run time, and hands out its entry points); NVRTC is loaded at run time
// (backends/vendor_library.hpp).
#pragma once

#include "../dynamic_library.hpp"
#include "../entry.hpp"
#include "../host_function.hpp"
#include "../vendor_library.hpp"
#include "blas.hpp"
#include "collectives.hpp"
#include "driver.hpp"
#include "nvrtc_library.hpp"
#include "toolkit_headers.hpp"

#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace kiln::detail::cuda {

inline cudaError_t load_library(cudaLibrary_t* library, const void* image) {
    return cudaLibraryLoadData(library, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
}

// Run-time compiled kernels go through the driver: a cuLaunchKernel of the device's CUfunction
// costs the host about 0.2 us less than a cudaLaunchKernel of the context-free cudaKernel_t, which
// the runtime looks up in the current context on every launch (docs/perf.md). The runtime numbers
// its errors as the driver does, so a CUresult reads as the cudaError_t of the same failure.
static_assert(static_cast<int>(cudaErrorInvalidValue) == CUDA_ERROR_INVALID_VALUE &&
              static_cast<int>(cudaErrorInvalidResourceHandle) == CUDA_ERROR_INVALID_HANDLE &&
              static_cast<int>(cudaErrorLaunchOutOfResources) ==
                  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES &&
              static_cast<int>(cudaErrorIllegalAddress) == CUDA_ERROR_ILLEGAL_ADDRESS &&
              static_cast<int>(cudaErrorLaunchFailure) == CUDA_ERROR_LAUNCH_FAILED &&
              static_cast<int>(cudaErrorCooperativeLaunchTooLarge) ==
                  CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);

inline CUresult driver_kernel_function(CUfunction* function, CUkernel kernel) {
    KILN_CALL_DRIVER(cuKernelGetFunction, function, kernel);
}
inline CUresult driver_launch(CUfunction f, const LaunchConfig& c, void** args) {
    KILN_CALL_DRIVER(cuLaunchKernel, f, c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y,
                     c.block.z, static_cast<unsigned>(c.shared_mem),
                     static_cast<CUstream>(c.stream.native()), args, nullptr);
}
inline CUresult driver_launch_cooperative(CUfunction f, const LaunchConfig& c, void** args) {
    KILN_CALL_DRIVER(cuLaunchCooperativeKernel, f, c.grid.x, c.grid.y, c.grid.z, c.block.x,
                     c.block.y, c.block.z, static_cast<unsigned>(c.shared_mem),
                     static_cast<CUstream>(c.stream.native()), args);
}
inline CUresult driver_function_attribute(int* value, CUfunction_attribute attribute,
                                          CUfunction f) {
    KILN_CALL_DRIVER(cuFuncGetAttribute, value, attribute, f);
}
inline CUresult driver_set_function_attribute(CUfunction f, CUfunction_attribute attribute,
                                              int value) {
    KILN_CALL_DRIVER(cuFuncSetAttribute, f, attribute, value);
}
inline CUresult driver_occupancy(int* blocks, CUfunction f, int block_size,
                                 std::size_t shared_mem) {
    KILN_CALL_DRIVER(cuOccupancyMaxActiveBlocksPerMultiprocessor, blocks, f, block_size,
                     shared_mem);
}

inline CUresult driver_current_context(CUcontext* context) {
    KILN_CALL_DRIVER(cuCtxGetCurrent, context);
}
inline CUresult driver_device(CUdevice* handle, int device) {
    KILN_CALL_DRIVER(cuDeviceGet, handle, device);
}
inline CUresult driver_retain_primary(CUcontext* context, CUdevice handle) {
    KILN_CALL_DRIVER(cuDevicePrimaryCtxRetain, context, handle);
}
inline CUresult driver_retain_primary_context(CUcontext* context, int device) {
    CUdevice handle{};
    const CUresult rc = driver_device(&handle, device);
    return rc == CUDA_SUCCESS ? driver_retain_primary(context, handle) : rc;
}

// The calling thread's current device, asked before every launch. The driver's current context,
// when it is a device's primary context, names the device for a third of cudaGetDevice's cost
// (docs/perf.md); any other context, or none, is asked of the runtime.
inline cudaError_t current_device(int* device) {
    // Never destroyed: launches may come during static destruction.
    static auto& primary = *new PrimaryContexts();
    CUcontext context = nullptr;
    if (driver_current_context(&context) == CUDA_SUCCESS && context != nullptr) {
        if (const int known = primary.device_of(context); known >= 0) {
            *device = known;
            return cudaSuccess;
        }
    }
    const cudaError_t rc = cudaGetDevice(device);
    if (rc == cudaSuccess) {
        primary.note(*device, driver_retain_primary_context);
    }
    return rc;
}

// The kernel's function in the current context: the device's, where the backend calls it.
inline cudaError_t library_function(CUfunction* function, cudaLibrary_t library, const char* name) {
    cudaKernel_t kernel{};
    if (const cudaError_t rc = cudaLibraryGetKernel(&kernel, library, name); rc != cudaSuccess) {
        return rc;
    }
    return static_cast<cudaError_t>(driver_kernel_function(function, kernel));
}

inline cudaError_t launch_kernel(CUfunction f, const LaunchConfig& c, void** args) {
    return static_cast<cudaError_t>(driver_launch(f, c, args));
}

inline cudaError_t launch_host_function(cudaStream_t stream, std::function<void()>* function) {
    return cudaLaunchHostFunc(
        stream, [](void* data) { run_host_function(data); }, function);
}

inline cudaError_t launch_cooperative_kernel(CUfunction f, const LaunchConfig& c, void** args) {
    return static_cast<cudaError_t>(driver_launch_cooperative(f, c, args));
}

inline cudaError_t kernel_attributes(FunctionAttributes* out, CUfunction f) {
    const std::array<std::pair<int*, CUfunction_attribute>, 8> fields{{
        {&out->max_threads_per_block, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
        {&out->num_regs, CU_FUNC_ATTRIBUTE_NUM_REGS},
        {&out->shared_size_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES},
        {&out->const_size_bytes, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES},
        {&out->local_size_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES},
        {&out->ptx_version, CU_FUNC_ATTRIBUTE_PTX_VERSION},
        {&out->binary_version, CU_FUNC_ATTRIBUTE_BINARY_VERSION},
        {&out->max_dynamic_shared_size_bytes, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES},
    }};
    for (const auto& [field, attribute] : fields) {
        if (const CUresult rc = driver_function_attribute(field, attribute, f);
            rc != CUDA_SUCCESS) {
            return static_cast<cudaError_t>(rc);
        }
    }
    return cudaSuccess;
}

inline cudaError_t set_kernel_attribute(CUfunction f, FunctionAttribute attribute, int value) {
    return static_cast<cudaError_t>(
        driver_set_function_attribute(f,
                                      attribute == FunctionAttribute::max_dynamic_shared_size_bytes
                                          ? CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
                                          : CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                      value));
}

inline cudaError_t kernel_occupancy(int* blocks, CUfunction f, int block_size,
                                    std::size_t shared_mem) {
    return static_cast<cudaError_t>(driver_occupancy(blocks, f, block_size, shared_mem));
}

inline cudaError_t instantiate_graph(cudaGraphExec_t* exec, cudaGraph_t graph) {
    return cudaGraphInstantiate(exec, graph, 0);
}

// NVRTC's compile calls; its error texts and targets come from NvrtcTargets.
struct Nvrtc : NvrtcTargets {
    using program_t = nvrtcProgram;
    static constexpr BackendKind kind = BackendKind::cuda;
    static constexpr const char* compiler_name = "NVRTC";
    static constexpr nvrtcResult compilation_error = NVRTC_ERROR_COMPILATION;

    KILN_ENTRY(create_program, nvrtcCreateProgram);
    KILN_ENTRY(compile_program, nvrtcCompileProgram);
    KILN_ENTRY(get_log_size, nvrtcGetProgramLogSize);
    KILN_ENTRY(get_log, nvrtcGetProgramLog);
    KILN_ENTRY(get_code_size, nvrtcGetCUBINSize);
    KILN_ENTRY(get_code, nvrtcGetCUBIN);
    KILN_ENTRY(destroy_program, nvrtcDestroyProgram);
    KILN_ENTRY(add_name_expression, nvrtcAddNameExpression);
    KILN_ENTRY(get_lowered_name, nvrtcGetLoweredName);
    KILN_ENTRY(version, nvrtcVersion);

    static std::string version_suffix() { return ""; }
    static const ToolkitHeaders& toolkit_headers() {
        return cuda::toolkit_headers(nvrtc_library().path());
    }
};

struct Api {
    // matmul's BLAS, when it loads (optional: not among the libraries the backend needs).
    using Blas = cuda::Blas;
    // kiln::distributed's library, loaded when first used (optional too).
    using Nccl = cuda::Nccl;
    using Rtc = Nvrtc;
    // The libraries loaded at run time; the backend is available when all of them are.
    static std::vector<VendorLibrary*> libraries() { return {&nvrtc_library()}; }
    using device_prop_t = cudaDeviceProp;
    using module_t = cudaLibrary_t;
    using function_t = CUfunction;
    using stream_t = cudaStream_t;
    using event_t = cudaEvent_t;
    using graph_t = cudaGraph_t;
    using graph_exec_t = cudaGraphExec_t;
    static constexpr BackendKind kind = BackendKind::cuda;
    static constexpr cudaError_t success = cudaSuccess;
    static constexpr cudaError_t not_ready = cudaErrorNotReady;
    static constexpr cudaError_t out_of_memory = cudaErrorMemoryAllocation;
    static constexpr cudaError_t peer_access_already_enabled = cudaErrorPeerAccessAlreadyEnabled;
    static constexpr cudaMemcpyKind memcpy_default = cudaMemcpyDefault;
    static constexpr cudaDeviceAttr attribute_memory_pools = cudaDevAttrMemoryPoolsSupported;
    static constexpr cudaDeviceAttr attribute_compute_major = cudaDevAttrComputeCapabilityMajor;
    static constexpr unsigned stream_non_blocking = cudaStreamNonBlocking;
    static constexpr unsigned event_blocking_sync = cudaEventBlockingSync;
    static constexpr unsigned event_disable_timing = cudaEventDisableTiming;
    static constexpr unsigned event_interprocess = cudaEventInterprocess;
    static constexpr cudaStreamCaptureMode capture_mode_relaxed = cudaStreamCaptureModeRelaxed;
    static cudaStream_t per_thread_stream() noexcept { return cudaStreamPerThread; }
    static void range_push(const char* name) noexcept { nvtxRangePushA(name); }
    static void range_pop() noexcept { nvtxRangePop(); }
    static std::string error_text(cudaError_t rc) { return cudaGetErrorString(rc); }
    static constexpr const char* runtime_name = "CUDA";
    // Makes every launch synchronous, so that a fault is reported by its own launch.
    static constexpr const char* launch_blocking_variable = "CUDA_LAUNCH_BLOCKING";
    // The kernel faults after which every call in the context fails with the same error.
    static constexpr bool loses_context(cudaError_t rc) {
        switch (rc) {
            case cudaErrorIllegalAddress:
            case cudaErrorLaunchTimeout:
            case cudaErrorAssert:
            case cudaErrorHardwareStackError:
            case cudaErrorIllegalInstruction:
            case cudaErrorMisalignedAddress:
            case cudaErrorInvalidAddressSpace:
            case cudaErrorInvalidPc:
            case cudaErrorLaunchFailure:
                return true;
            default:
                return false;
        }
    }
    // The runtime reports a missing driver as an insufficient one; say which it is.
    static std::string device_count_error(cudaError_t rc) {
        if (rc == cudaErrorInsufficientDriver && !DynamicLibrary("libcuda.so.1")) {
            return "no NVIDIA driver found (libcuda.so.1 could not be loaded)";
        }
        return error_text(rc);
    }

    static std::string arch(const cudaDeviceProp& p) {
        return NvrtcTargets::device_target(p.major, p.minor);
    }
    static std::size_t shared_memory_optin(const cudaDeviceProp& p) {
        return p.sharedMemPerBlockOptin;
    }

    KILN_LINKED_ENTRY(get_device_count, cudaGetDeviceCount);
    KILN_LINKED_ENTRY(get_device_properties, cudaGetDeviceProperties);
    static constexpr Entry<&current_device> get_device{"cudaGetDevice"};
    KILN_LINKED_ENTRY(set_device, cudaSetDevice);
    KILN_LINKED_ENTRY(device_synchronize, cudaDeviceSynchronize);
    KILN_LINKED_ENTRY(stream_priority_range, cudaDeviceGetStreamPriorityRange);
    KILN_LINKED_ENTRY(device_attribute, cudaDeviceGetAttribute);
    KILN_LINKED_ENTRY(device_can_access_peer, cudaDeviceCanAccessPeer);
    KILN_LINKED_ENTRY(device_enable_peer_access, cudaDeviceEnablePeerAccess);
    KILN_LINKED_ENTRY(memory_info, cudaMemGetInfo);
    KILN_LINKED_ENTRY(get_last_error, cudaGetLastError);
    KILN_LINKED_ENTRY(malloc, cudaMalloc);
    KILN_LINKED_ENTRY(free, cudaFree);
    KILN_LINKED_ENTRY(malloc_async, cudaMallocAsync);
    KILN_LINKED_ENTRY(free_async, cudaFreeAsync);
    KILN_LINKED_ENTRY(malloc_pinned, cudaMallocHost);
    KILN_LINKED_ENTRY(free_pinned, cudaFreeHost);
    KILN_LINKED_ENTRY(memcpy, cudaMemcpy);
    KILN_LINKED_ENTRY(memcpy_async, cudaMemcpyAsync);
    KILN_LINKED_ENTRY(memset_async, cudaMemsetAsync);
    KILN_LINKED_ENTRY(stream_create, cudaStreamCreateWithPriority);
    KILN_LINKED_ENTRY(stream_destroy, cudaStreamDestroy);
    KILN_LINKED_ENTRY(stream_synchronize, cudaStreamSynchronize);
    KILN_LINKED_ENTRY(stream_query, cudaStreamQuery);
    KILN_LINKED_ENTRY(stream_wait_event, cudaStreamWaitEvent);
    static constexpr Entry<&launch_host_function> launch_host_func{"cudaLaunchHostFunc"};
    KILN_LINKED_ENTRY(event_create, cudaEventCreateWithFlags);
    KILN_LINKED_ENTRY(event_destroy, cudaEventDestroy);
    KILN_LINKED_ENTRY(event_record, cudaEventRecord);
    KILN_LINKED_ENTRY(event_synchronize, cudaEventSynchronize);
    KILN_LINKED_ENTRY(event_query, cudaEventQuery);
    KILN_LINKED_ENTRY(event_elapsed_time, cudaEventElapsedTime);
    KILN_LINKED_ENTRY(begin_capture, cudaStreamBeginCapture);
    KILN_LINKED_ENTRY(end_capture, cudaStreamEndCapture);
    static constexpr Entry<&instantiate_graph> graph_instantiate{"cudaGraphInstantiate"};
    KILN_LINKED_ENTRY(graph_destroy, cudaGraphDestroy);
    KILN_LINKED_ENTRY(graph_launch, cudaGraphLaunch);
    KILN_LINKED_ENTRY(graph_exec_destroy, cudaGraphExecDestroy);
    static constexpr Entry<&load_library> load_module{"cudaLibraryLoadData"};
    KILN_LINKED_ENTRY(unload_module, cudaLibraryUnload);
    static constexpr Entry<&library_function> get_function{"cudaLibraryGetKernel"};
    static constexpr Entry<&launch_kernel> launch{"cuLaunchKernel"};
    static constexpr bool supports_cooperative_launch = true;
    static constexpr Entry<&launch_cooperative_kernel> launch_cooperative{
        "cuLaunchCooperativeKernel"};
    static constexpr Entry<&kernel_attributes> function_attributes{"cuFuncGetAttribute"};
    static constexpr Entry<&set_kernel_attribute> set_function_attribute{"cuFuncSetAttribute"};
    static constexpr Entry<&kernel_occupancy> occupancy{
        "cuOccupancyMaxActiveBlocksPerMultiprocessor"};
    KILN_LINKED_ENTRY(get_global, cudaLibraryGetGlobal);
};

}  // namespace kiln::detail::cuda
