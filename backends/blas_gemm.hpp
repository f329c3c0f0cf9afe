// matmul's call into a vendor BLAS loaded at run time (cuBLAS, hipBLAS), the same for each: the
// `Library` table says where its functions are and what its types are called. It is optional:
// when the library does not load, gemm returns false and matmul runs kiln's own kernel.
#pragma once

#include "../core/backend.hpp"
#include "entry.hpp"

#include <map>
#include <mutex>

namespace kiln::detail {

// `Library` gives: library(), success and error_text(status) for call<>; the entries create,
// set_stream, sgemm, dgemm, cgemm and zgemm (strided-batched GEMMs of the BLAS's column-major
// API); the types handle_t, stream_t, complex64_t and complex128_t; no_transpose; and
// bind_workspace(handle, pointer, bytes), for a BLAS that takes scratch memory from its caller,
// and workspace_bytes(major): how much it wants on a device of that compute capability (0: none).
template <class Library>
struct BlasGemm {
    using handle_t = typename Library::handle_t;

    // Row-major C = A B is column-major C^T = B^T A^T: the operands swap, and nothing transposes.
    static bool gemm(const GemmCall& g, int device) {
        if (!Library::library().load().empty()) {
            return false;
        }
        const std::scoped_lock lock(mutex());
        handle_t handle = handle_for(device);
        call<Library>(Library::set_stream, handle,
                      static_cast<typename Library::stream_t>(g.stream.native()));
        Library::bind_workspace(handle, g.workspace, g.workspace_bytes);
        switch (g.dtype) {
            case DType::float32:
                multiply<float>(Library::sgemm, handle, g, 1.0F, 0.0F);
                return true;
            case DType::float64:
                multiply<double>(Library::dgemm, handle, g, 1.0, 0.0);
                return true;
            case DType::complex64:
                multiply<typename Library::complex64_t>(Library::cgemm, handle, g, {1, 0}, {0, 0});
                return true;
            case DType::complex128:
                multiply<typename Library::complex128_t>(Library::zgemm, handle, g, {1, 0}, {0, 0});
                return true;
            default:
                return false;
        }
    }

    // What gemm wants in GemmCall::workspace: nothing when the library is not loaded.
    static std::size_t workspace_bytes(int major) {
        return Library::library().load().empty() ? Library::workspace_bytes(major) : 0;
    }

private:
    // C^T = 1 B^T A^T + 0 C^T in column-major terms, with `entry` the dtype's GEMM.
    template <class T, class Entry>
    static void multiply(const Entry& entry, handle_t handle, const GemmCall& g, T one, T zero) {
        call<Library>(entry, handle, Library::no_transpose, Library::no_transpose, g.n, g.m, g.k,
                      &one, static_cast<const T*>(g.b), g.n, g.b_stride, static_cast<const T*>(g.a),
                      g.k, g.a_stride, &zero, static_cast<T*>(g.c), g.n, g.c_stride, g.batch);
    }

    static std::mutex& mutex() {
        static auto& m = *new std::mutex();
        return m;
    }

    // A handle per device, kept until the process ends, so no BLAS call runs at exit. Each call
    // gives it the stream (and a workspace ordered on that stream), so calls on several streams
    // never share scratch memory.
    static handle_t handle_for(int device) {
        static auto& handles = *new std::map<int, handle_t>();
        auto& handle = handles[device];
        if (handle == nullptr) {
            call<Library>(Library::create, &handle);
        }
        return handle;
    }
};

}  // namespace kiln::detail
