// The CUDA driver and NVRTC functions that HIP's NVIDIA platform headers call from the wrappers
// the HIP backend uses (nvidia_platform.hpp). libkiln links neither library: each function is
// defined here, hidden inside libkiln, and forwards to the function of that name in the library
// found at run time. NVRTC is the one the backend loads (cuda::nvrtc_library); the driver is the
// one the statically linked CUDA runtime loaded, whose entry points it hands out. The link fails
// on any function the wrappers call that is missing here (--no-undefined, CMakeLists.txt).
#include "nvidia_platform.hpp"

namespace kiln::detail::hip {

namespace {

// The NVRTC functions HIP's hiprtc* wrappers call, and the cubin ones nvidia_platform.hpp adds.
struct Nvrtc {
    static VendorLibrary& library() { return cuda::nvrtc_library(); }
    KILN_ENTRY(get_error_string, nvrtcGetErrorString);
    KILN_ENTRY(version, nvrtcVersion);
    KILN_ENTRY(create_program, nvrtcCreateProgram);
    KILN_ENTRY(destroy_program, nvrtcDestroyProgram);
    KILN_ENTRY(compile_program, nvrtcCompileProgram);
    KILN_ENTRY(get_log_size, nvrtcGetProgramLogSize);
    KILN_ENTRY(get_log, nvrtcGetProgramLog);
    KILN_ENTRY(add_name_expression, nvrtcAddNameExpression);
    KILN_ENTRY(get_lowered_name, nvrtcGetLoweredName);
    KILN_ENTRY(get_cubin_size, nvrtcGetCUBINSize);
    KILN_ENTRY(get_cubin, nvrtcGetCUBIN);
};

// A driver function as the CUDA headers kiln was built with declare it (cuModuleGetGlobal is
// cuModuleGetGlobal_v2 there), from the driver the CUDA runtime loaded; null when it has none.
template <class Function>
Function driver_function(const char* name) {
    void* address = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion(name, &address, CUDA_VERSION, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
        return nullptr;
    }
    return reinterpret_cast<Function>(address);
}

// HIP's calls need no context; the driver's module and launch calls run in the calling thread's
// current one. The CUDA runtime makes the primary context of the thread's device current at the
// thread's first runtime call that needs a context, or at hipSetDevice, but HIP's module calls
// can come first: a thread's first driver call makes that runtime call (cudaFree(nullptr) frees
// nothing).
void bind_runtime_context() {
    thread_local bool bound = false;
    if (!bound) {
        (void)cudaFree(nullptr);
        bound = true;
    }
}

}  // namespace

}  // namespace kiln::detail::hip

// Defined in libkiln for its own calls only: not exported, so they never stand in for the real
// libraries' functions in a program that links those.
#define KILN_FORWARDER extern "C" __attribute__((visibility("hidden")))

// The body of a driver forwarder: `function`'s entry point, looked up once by its unversioned
// name, called with the arguments.
#define KILN_CALL_DRIVER(function, ...)                                                  \
    ::kiln::detail::hip::bind_runtime_context();                                         \
    static const auto forward =                                                          \
        ::kiln::detail::hip::driver_function<decltype(&(function))>(#function);          \
    return forward != nullptr ? forward(__VA_ARGS__) : CUDA_ERROR_NOT_FOUND

using kiln::detail::hip::Nvrtc;

KILN_FORWARDER const char* nvrtcGetErrorString(nvrtcResult result) {
    return Nvrtc::get_error_string(result);
}
KILN_FORWARDER nvrtcResult nvrtcVersion(int* major, int* minor) {
    return Nvrtc::version(major, minor);
}
KILN_FORWARDER nvrtcResult nvrtcCreateProgram(nvrtcProgram* program, const char* source,
                                              const char* name, int header_count,
                                              const char* const* headers,
                                              const char* const* include_names) {
    return Nvrtc::create_program(program, source, name, header_count, headers, include_names);
}
KILN_FORWARDER nvrtcResult nvrtcDestroyProgram(nvrtcProgram* program) {
    return Nvrtc::destroy_program(program);
}
KILN_FORWARDER nvrtcResult nvrtcCompileProgram(nvrtcProgram program, int option_count,
                                               const char* const* options) {
    return Nvrtc::compile_program(program, option_count, options);
}
KILN_FORWARDER nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram program, std::size_t* bytes) {
    return Nvrtc::get_log_size(program, bytes);
}
KILN_FORWARDER nvrtcResult nvrtcGetProgramLog(nvrtcProgram program, char* log) {
    return Nvrtc::get_log(program, log);
}
KILN_FORWARDER nvrtcResult nvrtcAddNameExpression(nvrtcProgram program, const char* expression) {
    return Nvrtc::add_name_expression(program, expression);
}
KILN_FORWARDER nvrtcResult nvrtcGetLoweredName(nvrtcProgram program, const char* expression,
                                               const char** lowered) {
    return Nvrtc::get_lowered_name(program, expression, lowered);
}
KILN_FORWARDER nvrtcResult nvrtcGetCUBINSize(nvrtcProgram program, std::size_t* bytes) {
    return Nvrtc::get_cubin_size(program, bytes);
}
KILN_FORWARDER nvrtcResult nvrtcGetCUBIN(nvrtcProgram program, char* image) {
    return Nvrtc::get_cubin(program, image);
}

KILN_FORWARDER CUresult cuModuleLoadData(CUmodule* module, const void* image) {
    KILN_CALL_DRIVER(cuModuleLoadData, module, image);
}
KILN_FORWARDER CUresult cuModuleUnload(CUmodule module) {
    KILN_CALL_DRIVER(cuModuleUnload, module);
}
KILN_FORWARDER CUresult cuModuleGetFunction(CUfunction* function, CUmodule module,
                                            const char* name) {
    KILN_CALL_DRIVER(cuModuleGetFunction, function, module, name);
}
KILN_FORWARDER CUresult cuModuleGetGlobal(CUdeviceptr* address, std::size_t* bytes, CUmodule module,
                                          const char* name) {
    KILN_CALL_DRIVER(cuModuleGetGlobal, address, bytes, module, name);
}
KILN_FORWARDER CUresult cuFuncGetAttribute(int* value, CUfunction_attribute attribute,
                                           CUfunction function) {
    KILN_CALL_DRIVER(cuFuncGetAttribute, value, attribute, function);
}
KILN_FORWARDER CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, CUfunction function,
                                                                    int block_size,
                                                                    std::size_t shared_bytes) {
    KILN_CALL_DRIVER(cuOccupancyMaxActiveBlocksPerMultiprocessor, blocks, function, block_size,
                     shared_bytes);
}
KILN_FORWARDER CUresult cuLaunchKernel(CUfunction function, unsigned grid_x, unsigned grid_y,
                                       unsigned grid_z, unsigned block_x, unsigned block_y,
                                       unsigned block_z, unsigned shared_bytes, CUstream stream,
                                       void** arguments, void** extra) {
    KILN_CALL_DRIVER(cuLaunchKernel, function, grid_x, grid_y, grid_z, block_x, block_y, block_z,
                     shared_bytes, stream, arguments, extra);
}
