// HIP's NVIDIA platform headers (hip/nvidia_detail, HIP 5.2), made to compile against CUDA 13
// with a host compiler. They map every hip* and hiprtc* function onto an inline wrapper over the
// CUDA runtime, the CUDA driver and NVRTC, and every one of those wrappers is compiled, used or
// not. HIP 5.2 predates CUDA 12, which removed texture references and multi-device cooperative
// launch, and CUDA 13, which removed five cudaDeviceProp fields and one attribute and changed
// cuCtxCreate, cudaMemPrefetchAsync and cudaMemAdvise: the declarations below close exactly that
// gap (GCC 12 reports 18 errors without them). None is reached by kiln: the removed functions
// answer cudaErrorNotSupported, the removed fields read 0.
#pragma once

#ifndef __HIP_PLATFORM_NVIDIA__
#error "backends/hip/nvidia_headers.hpp is for HIP's NVIDIA platform (__HIP_PLATFORM_NVIDIA__)"
#endif

#include <hip/hip_version.h>

#if HIP_VERSION_MAJOR != 5
#error "backends/hip/nvidia_headers.hpp closes the gaps of HIP 5's NVIDIA headers (tested: 5.2)"
#endif

// CUDA's own headers first, under their own names: the cudaDeviceProp macro below must not reach
// them.
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>

#if CUDART_VERSION >= 12000
struct textureReference;
struct cudaLaunchParams;

inline cudaError_t cudaBindTexture(size_t* /*offset*/, const textureReference* /*texture*/,
                                   const void* /*pointer*/, const cudaChannelFormatDesc* /*desc*/,
                                   size_t /*size*/) {
    return cudaErrorNotSupported;
}
inline cudaError_t cudaBindTexture2D(size_t* /*offset*/, const textureReference* /*texture*/,
                                     const void* /*pointer*/, const cudaChannelFormatDesc* /*desc*/,
                                     size_t /*width*/, size_t /*height*/, size_t /*pitch*/) {
    return cudaErrorNotSupported;
}
inline cudaError_t cudaGetTextureAlignmentOffset(size_t* /*offset*/,
                                                 const textureReference* /*texture*/) {
    return cudaErrorNotSupported;
}
inline cudaError_t cudaLaunchCooperativeKernelMultiDevice(cudaLaunchParams* /*launches*/,
                                                          int /*devices*/, unsigned /*flags*/) {
    return cudaErrorNotSupported;
}
#endif

#if CUDART_VERSION >= 13000
// A device ordinal, or cudaCpuDeviceId for the host, as a CUDA 13 memory location.
inline cudaMemLocation kiln_memory_location(int device) {
    return device == cudaCpuDeviceId ? cudaMemLocation{cudaMemLocationTypeHost, 0}
                                     : cudaMemLocation{cudaMemLocationTypeDevice, device};
}
inline cudaError_t cudaMemPrefetchAsync(const void* pointer, size_t bytes, int device,
                                        cudaStream_t stream) {
    return cudaMemPrefetchAsync(pointer, bytes, kiln_memory_location(device), 0, stream);
}
inline cudaError_t cudaMemAdvise(const void* pointer, size_t bytes, cudaMemoryAdvise advice,
                                 int device) {
    return cudaMemAdvise(pointer, bytes, advice, kiln_memory_location(device));
}
// cuCtxCreate is cuCtxCreate_v4, which takes creation parameters before the flags.
inline CUresult cuCtxCreate(CUcontext* context, unsigned flags, CUdevice device) {
    return cuCtxCreate(context, nullptr, flags, device);
}
// Attribute 96 is reserved since CUDA 13: the runtime refuses it.
constexpr cudaDeviceAttr cudaDevAttrCooperativeMultiDeviceLaunch = cudaDevAttrReserved96;

// cudaDeviceProp with the fields CUDA 13 removed, which HIP's wrappers copy to and from.
struct KilnCudaDevicePropWithRemovedFields : cudaDeviceProp {
    int clockRate = 0;
    int memoryClockRate = 0;
    int computeMode = 0;
    int cooperativeMultiDeviceLaunch = 0;
    int kernelExecTimeoutEnabled = 0;
};
#define cudaDeviceProp KilnCudaDevicePropWithRemovedFields
#endif

#include <hip/hip_runtime_api.h>
#include <hip/hiprtc.h>

#undef cudaDeviceProp

// HIP 5.2 declares the second half of its wrappers (graphs and stream capture among them) only for
// nvcc, under #ifdef __CUDACC__; kiln is compiled by a host compiler. Defining __CUDACC__ there
// exposes 26 more errors against CUDA 13 (texture templates, changed graph calls), so the six
// wrappers the table uses are spelled here, in the same terms as HIP's.
inline hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode) {
    return hipCUDAErrorTohipError(cudaStreamBeginCapture(stream, mode));
}
inline hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* graph) {
    return hipCUDAErrorTohipError(cudaStreamEndCapture(stream, graph));
}
// CUDA 12 dropped the error node and log: they are left as they are.
inline hipError_t hipGraphInstantiate(hipGraphExec_t* exec, hipGraph_t graph,
                                      hipGraphNode_t* /*error_node*/, char* /*log*/,
                                      size_t /*log_size*/) {
    return hipCUDAErrorTohipError(cudaGraphInstantiate(exec, graph, 0));
}
inline hipError_t hipGraphDestroy(hipGraph_t graph) {
    return hipCUDAErrorTohipError(cudaGraphDestroy(graph));
}
inline hipError_t hipGraphLaunch(hipGraphExec_t exec, hipStream_t stream) {
    return hipCUDAErrorTohipError(cudaGraphLaunch(exec, stream));
}
inline hipError_t hipGraphExecDestroy(hipGraphExec_t exec) {
    return hipCUDAErrorTohipError(cudaGraphExecDestroy(exec));
}
