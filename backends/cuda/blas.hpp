// cuBLAS, loaded at run time like NVRTC, for matmul (backends/blas_gemm.hpp). It is optional:
// without it the backend still runs, and matmul uses kiln's own kernel.
#pragma once

#include "../blas_gemm.hpp"
#include "../entry.hpp"
#include "../vendor_library.hpp"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#ifndef KILN_CUDA_LIBRARY_DIR
#define KILN_CUDA_LIBRARY_DIR ""
#endif

namespace kiln::detail::cuda {

inline VendorLibrary& cublas_library() {
    // Never destroyed: see VendorLibrary.
    static auto& library = *new VendorLibrary(
        {.what = "cuBLAS",
         .names = versioned_names("libcublas.so", {CUDART_VERSION / 1000, 13, 12}),
         .root_variables = {"CUDA_PATH", "CUDA_HOME"},
         .roots = {"/usr/local/cuda"},
         .subdirectories = {"lib64", "lib"},
         .directories = {KILN_CUDA_LIBRARY_DIR}});
    return library;
}

struct Cublas {
    static VendorLibrary& library() { return cublas_library(); }
    static constexpr cublasStatus_t success = CUBLAS_STATUS_SUCCESS;
    static std::string error_text(cublasStatus_t rc) { return status_string(rc); }

    using handle_t = cublasHandle_t;
    using stream_t = cudaStream_t;
    using complex64_t = cuComplex;
    using complex128_t = cuDoubleComplex;
    static constexpr cublasOperation_t no_transpose = CUBLAS_OP_N;

    KILN_ENTRY(status_string, cublasGetStatusString);
    KILN_ENTRY(create, cublasCreate);
    KILN_ENTRY(set_stream, cublasSetStream);
    KILN_ENTRY(set_workspace, cublasSetWorkspace);
    KILN_ENTRY(sgemm, cublasSgemmStridedBatched);
    KILN_ENTRY(dgemm, cublasDgemmStridedBatched);
    KILN_ENTRY(cgemm, cublasCgemmStridedBatched);
    KILN_ENTRY(zgemm, cublasZgemmStridedBatched);

    // Without a workspace of its own per call, cuBLAS would share one across streams.
    static void bind_workspace(cublasHandle_t handle, void* workspace, std::size_t bytes) {
        call<Cublas>(set_workspace, handle, workspace, bytes);
    }
    // cublasSetWorkspace's recommended sizes: 32 MiB from Hopper (compute capability 9) on,
    // 4 MiB (its default pool's) before; a smaller one only narrows the algorithms it may pick.
    static std::size_t workspace_bytes(int major) {
        return major >= 9 ? std::size_t{32} << 20 : std::size_t{4} << 20;
    }
};

using Blas = BlasGemm<Cublas>;

}  // namespace kiln::detail::cuda
