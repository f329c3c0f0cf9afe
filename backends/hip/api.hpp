// The HIP runtime and HIPRTC entry points that backends/runtime.hpp and compiler.hpp run over. One
// table for HIP's two platforms; what each platform supplies (where the entries come from, the
// libraries loaded at run time, targets, code objects, the compiler's options) is in
// amd_platform.hpp and nvidia_platform.hpp, which say what differs.
#pragma once

#include "../entry.hpp"
#include "../host_function.hpp"
#include "blas.hpp"
#include "collectives.hpp"

#if defined(__HIP_PLATFORM_NVIDIA__)
#include "nvidia_platform.hpp"
#else
#include "amd_platform.hpp"
#endif

#include <array>
#include <string>

namespace kiln::detail::hip {

// The HIP runtime functions that the adapters below wrap.
struct HipFunctions : Platform {
    KILN_HIP_OVERLOAD_ENTRY(host_malloc, hipHostMalloc,
                            hipError_t (*)(void**, std::size_t, unsigned));
    KILN_HIP_ENTRY(stream_add_callback, hipStreamAddCallback);
    KILN_HIP_ENTRY(func_get_attribute, hipFuncGetAttribute);
    KILN_HIP_ENTRY(graph_instantiate, hipGraphInstantiate);
    KILN_HIP_ENTRY(module_launch_kernel, hipModuleLaunchKernel);
    KILN_HIP_ENTRY(module_get_global, hipModuleGetGlobal);
};

inline hipError_t host_malloc_default(void** ptr, std::size_t bytes) {
    return HipFunctions::host_malloc(ptr, bytes, hipHostMallocDefault);
}

// hipLaunchHostFunc is declared but not exported by HIP 5.2; a stream callback does the same.
inline hipError_t launch_host_function(hipStream_t stream, std::function<void()>* function) {
    return HipFunctions::stream_add_callback(
        stream, [](hipStream_t, hipError_t, void* data) { run_host_function(data); }, function, 0);
}

inline hipError_t function_attributes(FunctionAttributes* out, hipFunction_t function) {
    const std::array<std::pair<int*, hipFunction_attribute>, 8> fields{{
        {&out->max_threads_per_block, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
        {&out->num_regs, HIP_FUNC_ATTRIBUTE_NUM_REGS},
        {&out->shared_size_bytes, HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES},
        {&out->const_size_bytes, HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES},
        {&out->local_size_bytes, HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES},
        {&out->ptx_version, HIP_FUNC_ATTRIBUTE_PTX_VERSION},
        {&out->binary_version, HIP_FUNC_ATTRIBUTE_BINARY_VERSION},
        {&out->max_dynamic_shared_size_bytes, HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES},
    }};
    for (const auto& [field, attribute] : fields) {
        if (const hipError_t rc = HipFunctions::func_get_attribute(field, attribute, function);
            rc != hipSuccess) {
            return rc;
        }
    }
    return hipSuccess;
}

// HIP 5.2 has no call that sets a module function's attributes: no opt-in for more dynamic shared
// memory and no carveout. A value within the platform's fixed limit is accepted as is.
inline hipError_t set_function_attribute(hipFunction_t /*function*/, FunctionAttribute attribute,
                                         int value) {
    if (attribute == FunctionAttribute::max_dynamic_shared_size_bytes &&
        value > Platform::dynamic_shared_memory_limit) {
        return hipErrorInvalidValue;
    }
    return hipSuccess;
}

inline hipError_t instantiate_graph(hipGraphExec_t* exec, hipGraph_t graph) {
    return HipFunctions::graph_instantiate(exec, graph, nullptr, nullptr, 0);
}

// A module global's address: hipDeviceptr_t is void* on AMD and CUdeviceptr (an integer) on
// NVIDIA.
inline hipError_t module_global(void** address, std::size_t* bytes, hipModule_t module,
                                const char* name) {
    hipDeviceptr_t pointer{};
    const hipError_t rc = HipFunctions::module_get_global(&pointer, bytes, module, name);
    // NOLINTNEXTLINE(performance-no-int-to-ptr): a device address, as the driver gives it
    *address = reinterpret_cast<void*>(pointer);
    return rc;
}

inline hipError_t launch_kernel(hipFunction_t function, const LaunchConfig& c, void** args) {
    return HipFunctions::module_launch_kernel(
        function, c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y, c.block.z,
        static_cast<unsigned>(c.shared_mem), static_cast<hipStream_t>(c.stream.native()), args,
        nullptr);
}

// HIPRTC's compile calls; the platform adds its code objects, targets and headers.
struct Hiprtc : CompilerPlatform {
    using program_t = hiprtcProgram;
    static constexpr BackendKind kind = BackendKind::hip;
    static constexpr hiprtcResult success = HIPRTC_SUCCESS;
    static constexpr hiprtcResult compilation_error = HIPRTC_ERROR_COMPILATION;
    // hiprtcGetErrorString returns null for codes it does not know.
    static std::string error_text(hiprtcResult rc) {
        const char* text = get_error_string(rc);
        return text != nullptr ? text : "unknown HIPRTC error";
    }

    KILN_HIP_ENTRY(get_error_string, hiprtcGetErrorString);

    KILN_HIP_ENTRY(create_program, hiprtcCreateProgram);
    KILN_HIP_ENTRY(compile_program, hiprtcCompileProgram);
    KILN_HIP_ENTRY(get_log_size, hiprtcGetProgramLogSize);
    KILN_HIP_ENTRY(get_log, hiprtcGetProgramLog);
    KILN_HIP_ENTRY(destroy_program, hiprtcDestroyProgram);
    KILN_HIP_ENTRY(add_name_expression, hiprtcAddNameExpression);
    KILN_HIP_ENTRY(get_lowered_name, hiprtcGetLoweredName);
    KILN_HIP_ENTRY(version, hiprtcVersion);

    // hiprtcVersion reports the compiler's own version, not HIP's: add HIP's.
    static std::string version_suffix() {
        return " (HIP " + std::to_string(HIP_VERSION_MAJOR) + "." +
               std::to_string(HIP_VERSION_MINOR) + "." + std::to_string(HIP_VERSION_PATCH) + ")";
    }
};

// The platform gives libraries() and arch() (and on AMD the library the entries come from).
struct Api : Platform {
    // matmul's BLAS, when it loads (optional: not among the libraries the backend needs).
    using Blas = hip::Blas;
    // kiln::distributed's library, loaded when first used (optional too).
    using Nccl = hip::Nccl;
    using Rtc = Hiprtc;
    using device_prop_t = hipDeviceProp_t;
    using module_t = hipModule_t;
    using function_t = hipFunction_t;
    using stream_t = hipStream_t;
    using event_t = hipEvent_t;
    using graph_t = hipGraph_t;
    using graph_exec_t = hipGraphExec_t;
    static constexpr BackendKind kind = BackendKind::hip;
    static constexpr hipError_t success = hipSuccess;
    static constexpr hipError_t not_ready = hipErrorNotReady;
    static constexpr hipError_t out_of_memory = hipErrorOutOfMemory;
    static constexpr hipError_t peer_access_already_enabled = hipErrorPeerAccessAlreadyEnabled;
    static constexpr hipMemcpyKind memcpy_default = hipMemcpyDefault;
    static constexpr hipDeviceAttribute_t attribute_memory_pools =
        hipDeviceAttributeMemoryPoolsSupported;
    static constexpr hipDeviceAttribute_t attribute_compute_major =
        hipDeviceAttributeComputeCapabilityMajor;
    static constexpr unsigned stream_non_blocking = hipStreamNonBlocking;
    static constexpr unsigned event_blocking_sync = hipEventBlockingSync;
    static constexpr unsigned event_disable_timing = hipEventDisableTiming;
    static constexpr unsigned event_interprocess = hipEventInterprocess;
    static constexpr hipStreamCaptureMode capture_mode_relaxed = hipStreamCaptureModeRelaxed;
    static hipStream_t per_thread_stream() noexcept { return hipStreamPerThread; }
    static void range_push(const char* /*name*/) noexcept {}
    static void range_pop() noexcept {}
    static std::string error_text(hipError_t rc) { return get_error_string(rc); }
    static constexpr const char* runtime_name = "HIP";
    // The kernel faults after which every call in the context fails with the same error.
    static constexpr bool loses_context(hipError_t rc) {
        switch (rc) {
            case hipErrorIllegalAddress:
            case hipErrorLaunchTimeOut:
            case hipErrorAssert:
            case hipErrorLaunchFailure:
                return true;
            default:
                return false;
        }
    }
    static std::string device_count_error(hipError_t rc) { return error_text(rc); }

    // HIP 5.2 has no opt-in beyond the per-block limit (set_function_attribute).
    static std::size_t shared_memory_optin(const hipDeviceProp_t& p) { return p.sharedMemPerBlock; }

    KILN_HIP_ENTRY(get_error_string, hipGetErrorString);
    KILN_HIP_ENTRY(get_device_count, hipGetDeviceCount);
    KILN_HIP_ENTRY(get_device_properties, hipGetDeviceProperties);
    KILN_HIP_ENTRY(get_device, hipGetDevice);
    KILN_HIP_ENTRY(set_device, hipSetDevice);
    KILN_HIP_ENTRY(device_synchronize, hipDeviceSynchronize);
    KILN_HIP_ENTRY(stream_priority_range, hipDeviceGetStreamPriorityRange);
    KILN_HIP_ENTRY(device_attribute, hipDeviceGetAttribute);
    KILN_HIP_ENTRY(device_can_access_peer, hipDeviceCanAccessPeer);
    KILN_HIP_ENTRY(device_enable_peer_access, hipDeviceEnablePeerAccess);
    KILN_HIP_ENTRY(memory_info, hipMemGetInfo);
    KILN_HIP_ENTRY(get_last_error, hipGetLastError);
    KILN_HIP_OVERLOAD_ENTRY(malloc, hipMalloc, hipError_t (*)(void**, std::size_t));
    KILN_HIP_ENTRY(free, hipFree);
    KILN_HIP_OVERLOAD_ENTRY(malloc_async, hipMallocAsync,
                            hipError_t (*)(void**, std::size_t, hipStream_t));
    KILN_HIP_ENTRY(free_async, hipFreeAsync);
    static constexpr Entry<&host_malloc_default> malloc_pinned{"hipHostMalloc"};
    KILN_HIP_ENTRY(free_pinned, hipHostFree);
    KILN_HIP_ENTRY(memcpy, hipMemcpy);
    KILN_HIP_ENTRY(memcpy_async, hipMemcpyAsync);
    KILN_HIP_ENTRY(memset_async, hipMemsetAsync);
    KILN_HIP_ENTRY(stream_create, hipStreamCreateWithPriority);
    KILN_HIP_ENTRY(stream_destroy, hipStreamDestroy);
    KILN_HIP_ENTRY(stream_synchronize, hipStreamSynchronize);
    KILN_HIP_ENTRY(stream_query, hipStreamQuery);
    KILN_HIP_ENTRY(stream_wait_event, hipStreamWaitEvent);
    static constexpr Entry<&launch_host_function> launch_host_func{"hipStreamAddCallback"};
    KILN_HIP_ENTRY(event_create, hipEventCreateWithFlags);
    KILN_HIP_ENTRY(event_destroy, hipEventDestroy);
    KILN_HIP_ENTRY(event_record, hipEventRecord);
    KILN_HIP_ENTRY(event_synchronize, hipEventSynchronize);
    KILN_HIP_ENTRY(event_query, hipEventQuery);
    KILN_HIP_ENTRY(event_elapsed_time, hipEventElapsedTime);
    KILN_HIP_ENTRY(begin_capture, hipStreamBeginCapture);
    KILN_HIP_ENTRY(end_capture, hipStreamEndCapture);
    static constexpr Entry<&instantiate_graph> graph_instantiate{"hipGraphInstantiate"};
    KILN_HIP_ENTRY(graph_destroy, hipGraphDestroy);
    KILN_HIP_ENTRY(graph_launch, hipGraphLaunch);
    KILN_HIP_ENTRY(graph_exec_destroy, hipGraphExecDestroy);
    KILN_HIP_ENTRY(load_module, hipModuleLoadData);
    KILN_HIP_ENTRY(unload_module, hipModuleUnload);
    KILN_HIP_ENTRY(get_function, hipModuleGetFunction);
    static constexpr Entry<&launch_kernel> launch{"hipModuleLaunchKernel"};
    // Cooperative launch of module functions arrives in ROCm 5.5.
    static constexpr bool supports_cooperative_launch = false;
    static constexpr Entry<&hip::function_attributes> function_attributes{"hipFuncGetAttribute"};
    static constexpr Entry<&hip::set_function_attribute> set_function_attribute{
        "hipFuncSetAttribute"};
    KILN_HIP_ENTRY(occupancy, hipModuleOccupancyMaxActiveBlocksPerMultiprocessor);
    static constexpr Entry<&module_global> get_global{"hipModuleGetGlobal"};
};

}  // namespace kiln::detail::hip
