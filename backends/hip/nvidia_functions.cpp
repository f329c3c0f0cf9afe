// The CUDA driver and NVRTC functions that HIP's NVIDIA platform headers call from the wrappers
// the HIP backend uses (nvidia_platform.hpp). libkiln links neither library: each function is
// defined here, hidden inside libkiln, and forwards to the function of that name in the library
// found at run time. NVRTC is the one the backend loads (cuda::nvrtc_library); the driver is the
// one the statically linked CUDA runtime loaded (cuda/driver.hpp). The link fails on any function
// the wrappers call that is missing here (--no-undefined, CMakeLists.txt).
#include "../cuda/driver.hpp"
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

}  // namespace

}  // namespace kiln::detail::hip

// Defined in libkiln for its own calls only: not exported, so they never stand in for the real
// libraries' functions in a program that links those.
#define KILN_FORWARDER extern "C" __attribute__((visibility("hidden")))

using kiln::detail::hip::Nvrtc;

// Each keeps the vendor header's parameter names.
KILN_FORWARDER const char* nvrtcGetErrorString(nvrtcResult result) {
    return Nvrtc::get_error_string(result);
}
KILN_FORWARDER nvrtcResult nvrtcVersion(int* major, int* minor) {
    return Nvrtc::version(major, minor);
}
KILN_FORWARDER nvrtcResult nvrtcCreateProgram(nvrtcProgram* prog, const char* src, const char* name,
                                              int numHeaders, const char* const* headers,
                                              const char* const* includeNames) {
    return Nvrtc::create_program(prog, src, name, numHeaders, headers, includeNames);
}
KILN_FORWARDER nvrtcResult nvrtcDestroyProgram(nvrtcProgram* prog) {
    return Nvrtc::destroy_program(prog);
}
KILN_FORWARDER nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions,
                                               const char* const* options) {
    return Nvrtc::compile_program(prog, numOptions, options);
}
KILN_FORWARDER nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram prog, std::size_t* logSizeRet) {
    return Nvrtc::get_log_size(prog, logSizeRet);
}
KILN_FORWARDER nvrtcResult nvrtcGetProgramLog(nvrtcProgram prog, char* log) {
    return Nvrtc::get_log(prog, log);
}
KILN_FORWARDER nvrtcResult nvrtcAddNameExpression(nvrtcProgram prog, const char* name_expression) {
    return Nvrtc::add_name_expression(prog, name_expression);
}
KILN_FORWARDER nvrtcResult nvrtcGetLoweredName(nvrtcProgram prog, const char* name_expression,
                                               const char** lowered_name) {
    return Nvrtc::get_lowered_name(prog, name_expression, lowered_name);
}
KILN_FORWARDER nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, std::size_t* cubinSizeRet) {
    return Nvrtc::get_cubin_size(prog, cubinSizeRet);
}
KILN_FORWARDER nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char* cubin) {
    return Nvrtc::get_cubin(prog, cubin);
}

KILN_FORWARDER CUresult cuModuleLoadData(CUmodule* module, const void* image) {
    KILN_CALL_DRIVER(cuModuleLoadData, module, image);
}
KILN_FORWARDER CUresult cuModuleUnload(CUmodule hmod) {
    KILN_CALL_DRIVER(cuModuleUnload, hmod);
}
KILN_FORWARDER CUresult cuModuleGetFunction(CUfunction* hfunc, CUmodule hmod, const char* name) {
    KILN_CALL_DRIVER(cuModuleGetFunction, hfunc, hmod, name);
}
KILN_FORWARDER CUresult cuModuleGetGlobal(CUdeviceptr* dptr, std::size_t* bytes, CUmodule hmod,
                                          const char* name) {
    KILN_CALL_DRIVER(cuModuleGetGlobal, dptr, bytes, hmod, name);
}
KILN_FORWARDER CUresult cuFuncGetAttribute(int* pi, CUfunction_attribute attrib, CUfunction hfunc) {
    KILN_CALL_DRIVER(cuFuncGetAttribute, pi, attrib, hfunc);
}
KILN_FORWARDER CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, CUfunction func,
                                                                    int blockSize,
                                                                    std::size_t dynamicSMemSize) {
    KILN_CALL_DRIVER(cuOccupancyMaxActiveBlocksPerMultiprocessor, numBlocks, func, blockSize,
                     dynamicSMemSize);
}
KILN_FORWARDER CUresult cuLaunchKernel(CUfunction f, unsigned gridDimX, unsigned gridDimY,
                                       unsigned gridDimZ, unsigned blockDimX, unsigned blockDimY,
                                       unsigned blockDimZ, unsigned sharedMemBytes,
                                       CUstream hStream, void** kernelParams, void** extra) {
    KILN_CALL_DRIVER(cuLaunchKernel, f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
                     blockDimZ, sharedMemBytes, hStream, kernelParams, extra);
}
