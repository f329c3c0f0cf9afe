// The BLAS for matmul on HIP (backends/blas_gemm.hpp): cuBLAS itself on HIP's NVIDIA platform (as
// hipBLAS there would be), hipBLAS on AMD, loaded at run time from ROCm. Optional: without it
// matmul runs kiln's own kernel.
#pragma once

#include "../blas_gemm.hpp"

#if defined(__HIP_PLATFORM_NVIDIA__)
#include "../cuda/blas.hpp"
#else
#include "amd_platform.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#endif

namespace kiln::detail::hip {

#if defined(__HIP_PLATFORM_NVIDIA__)
using Blas = cuda::Blas;
#else
inline VendorLibrary& hipblas_library() {
    // Never destroyed: see VendorLibrary.
    static auto& library =
        *new VendorLibrary(rocm_search("hipBLAS", versioned_names("libhipblas.so", {3, 2, 1, 0})));
    return library;
}

// hipBLAS's C API as its header declares it (Debian has no hipBLAS to include): a handle is a
// pointer, statuses and operations are C enums, and strides are 64-bit.
struct Hipblas {
    using handle_t = void*;
    using stream_t = hipStream_t;
    using status_t = int;
    using operation_t = int;
    struct complex64_t {
        float x, y;
    };
    struct complex128_t {
        double x, y;
    };
    static constexpr status_t success = 0;
    static constexpr operation_t no_transpose = 111;  // HIPBLAS_OP_N

    static VendorLibrary& library() { return hipblas_library(); }

    // hipblasStatusToString is missing from older hipBLAS; the names are hipBLAS's own.
    static std::string error_text(status_t rc) {
        constexpr std::array<const char*, 12> names = {
            "HIPBLAS_STATUS_SUCCESS",        "HIPBLAS_STATUS_NOT_INITIALIZED",
            "HIPBLAS_STATUS_ALLOC_FAILED",   "HIPBLAS_STATUS_INVALID_VALUE",
            "HIPBLAS_STATUS_MAPPING_ERROR",  "HIPBLAS_STATUS_EXECUTION_FAILED",
            "HIPBLAS_STATUS_INTERNAL_ERROR", "HIPBLAS_STATUS_NOT_SUPPORTED",
            "HIPBLAS_STATUS_ARCH_MISMATCH",  "HIPBLAS_STATUS_HANDLE_IS_NULLPTR",
            "HIPBLAS_STATUS_INVALID_ENUM",   "HIPBLAS_STATUS_UNKNOWN"};
        return rc >= 0 && rc < static_cast<status_t>(names.size())
                   ? names.at(static_cast<std::size_t>(rc))
                   : "hipBLAS status " + std::to_string(rc);
    }

    template <class T>
    using gemm_t = status_t (*)(handle_t, operation_t, operation_t, int, int, int, const T*,
                                const T*, int, std::int64_t, const T*, int, std::int64_t, const T*,
                                T*, int, std::int64_t, int);

    KILN_ENTRY_OF_TYPE(create, hipblasCreate, status_t (*)(handle_t*));
    KILN_ENTRY_OF_TYPE(set_stream, hipblasSetStream, status_t (*)(handle_t, hipStream_t));
    KILN_ENTRY_OF_TYPE(sgemm, hipblasSgemmStridedBatched, gemm_t<float>);
    KILN_ENTRY_OF_TYPE(dgemm, hipblasDgemmStridedBatched, gemm_t<double>);
    KILN_ENTRY_OF_TYPE(cgemm, hipblasCgemmStridedBatched, gemm_t<complex64_t>);
    KILN_ENTRY_OF_TYPE(zgemm, hipblasZgemmStridedBatched, gemm_t<complex128_t>);

    // hipBLAS keeps its scratch itself (rocBLAS allocates it per handle).
    static void bind_workspace(handle_t /*handle*/, void* /*workspace*/, std::size_t /*bytes*/) {}
    static std::size_t workspace_bytes(int /*major*/) { return 0; }
};

using Blas = BlasGemm<Hipblas>;
#endif

}  // namespace kiln::detail::hip
