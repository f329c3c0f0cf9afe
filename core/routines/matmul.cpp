// matmul and dot: NumPy's shapes and dtypes, then one batched product through the backend's BLAS
// or kiln's tiled kernel.
#include "../array/array_memory.hpp"
#include "../backend.hpp"
#include "../call_context.hpp"
#include "../kernels/builtin/array_copy.hpp"
#include "../kernels/builtin/matmul_kernel.hpp"
#include "copy_into.hpp"

#include <kiln/error.hpp>
#include <kiln/linalg.hpp>
#include <kiln/memory_overlap.hpp>
#include <kiln/shape.hpp>
#include <kiln/ufuncs.hpp>

#include <climits>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

namespace kiln {

namespace {

using detail::GemmCall;

std::int64_t product(Shape::const_iterator first, Shape::const_iterator last) {
    return std::accumulate(first, last, std::int64_t{1}, std::multiplies<>());
}

bool blas_dtype(DType dtype) {
    return dtype == DType::float32 || dtype == DType::float64 || dtype == DType::complex64 ||
           dtype == DType::complex128;
}

ndarray contiguous(const ndarray& x, DType dtype, StreamView stream) {
    return x.dtype() == dtype && x.c_contiguous() ? x : detail::astype_on(x, dtype, stream);
}

// An operand's matrices as C-contiguous batches of `dtype`, and the elements between batches:
// 0 when one matrix serves them all, so a broadcast operand is never copied per batch.
struct Operand {
    ndarray matrices;
    long long stride = 0;
};

Operand prepare(const ndarray& x, const Shape& batch, DType dtype, StreamView stream) {
    const Shape core(x.shape().end() - 2, x.shape().end());
    if (product(x.shape().begin(), x.shape().end() - 2) == 1) {
        return {contiguous(x.reshape(core), dtype, stream), 0};
    }
    Shape full = batch;
    full.insert(full.end(), core.begin(), core.end());
    return {contiguous(broadcast_to(x, full), dtype, stream), core[0] * core[1]};
}

void check_out(const char* routine, const ndarray& out, const Shape& shape, DType dtype) {
    if (out.shape() != shape) {
        throw ShapeError(std::string("kiln: ") + routine + ": out has shape " +
                         to_string(out.shape()) + "; the result's shape is " + to_string(shape));
    }
    if (!can_cast(dtype, out.dtype(), Casting::same_kind)) {
        throw TypeError(std::string("kiln: ") + routine + ": out has dtype " +
                        std::string(name(out.dtype())) + "; the result's dtype " +
                        std::string(name(dtype)) +
                        " does not cast to it under 'same_kind' casting");
    }
}

DType compute_dtype(const char* routine, const ndarray& a, const ndarray& b,
                    const std::optional<DType>& requested) {
    const DType dtype = requested.value_or(promote_types(a.dtype(), b.dtype()));
    for (const ndarray* operand : {&a, &b}) {
        if (requested && !can_cast(operand->dtype(), dtype, Casting::same_kind)) {
            throw TypeError(std::string("kiln: ") + routine + ": operand " +
                            std::to_string(operand == &a ? 0 : 1) + " has dtype " +
                            std::string(name(operand->dtype())) +
                            ", which cannot be cast to the requested dtype " +
                            std::string(name(dtype)) + " under 'same_kind' casting");
        }
    }
    if (dtype == DType::bool_) {
        throw TypeError(std::string("kiln: ") + routine +
                        ": bool matrices are not supported; cast them to an integer dtype");
    }
    return dtype;
}

// The extents of a batched product, NumPy's shape of its result, checked against BLAS's int
// extents.
struct ProductShape {
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;
    Shape batch;
    std::int64_t batches = 1;
    Shape result;
};

// `a2` and `b2` are `a` and `b` with a 1-d operand made a row or a column.
ProductShape product_shape(const ndarray& a, const ndarray& b, const ndarray& a2,
                           const ndarray& b2) {
    ProductShape p;
    p.m = a2.shape().end()[-2];
    p.k = a2.shape().back();
    p.n = b2.shape().back();
    if (b2.shape().end()[-2] != p.k) {
        throw ValueError("kiln: matmul: operand 0 has " + std::to_string(p.k) +
                         " columns and operand 1 has " + std::to_string(b2.shape().end()[-2]) +
                         " rows; they must be equal");
    }
    try {
        p.batch = broadcast_shapes({Shape(a2.shape().begin(), a2.shape().end() - 2),
                                    Shape(b2.shape().begin(), b2.shape().end() - 2)});
    } catch (const ShapeError&) {
        throw ShapeError("kiln: matmul: the batch axes of shapes " + to_string(a.shape()) +
                         " and " + to_string(b.shape()) + " do not broadcast");
    }
    p.batches = product(p.batch.begin(), p.batch.end());
    for (const std::int64_t extent : {p.m, p.n, p.k, p.batches}) {
        if (extent > INT_MAX) {
            throw ShapeError("kiln: matmul: extents and batch counts above " +
                             std::to_string(INT_MAX) + " are not supported (got " +
                             std::to_string(extent) + ")");
        }
    }
    p.result = p.batch;
    if (a.ndim() > 1) {
        p.result.push_back(p.m);
    }
    if (b.ndim() > 1) {
        p.result.push_back(p.n);
    }
    return p;
}

// c = a2 @ b2 on `stream`, through the backend's BLAS where it takes the dtype, else kiln's tiled
// kernel.
void multiply_into(ndarray& c, const ndarray& a2, const ndarray& b2, const ProductShape& p,
                   DType dtype, StreamView stream) {
    if (p.k == 0) {
        detail::backend().fill_bytes_async(c.data(), 0, c.nbytes(), stream);
        return;
    }
    if (c.size() == 0) {
        return;
    }
    const Operand left = prepare(a2, p.batch, dtype, stream);
    const Operand right = prepare(b2, p.batch, dtype, stream);
    // Only for a BLAS that takes scratch from its caller; from the pool, freed on the stream after.
    const std::size_t workspace_bytes =
        blas_dtype(dtype) ? detail::backend().blas_workspace_bytes(stream.device()) : 0;
    const ndarray workspace =
        workspace_bytes != 0
            ? detail::empty_on({static_cast<std::int64_t>(workspace_bytes)}, DType::uint8, stream)
            : ndarray();
    const GemmCall call{dtype,
                        static_cast<int>(p.m),
                        static_cast<int>(p.n),
                        static_cast<int>(p.k),
                        left.matrices.data(),
                        left.stride,
                        right.matrices.data(),
                        right.stride,
                        c.data(),
                        p.m * p.n,
                        static_cast<int>(p.batches),
                        stream,
                        workspace.data(),
                        workspace.nbytes()};
    if (!blas_dtype(dtype) || !detail::backend().blas_gemm(call)) {
        detail::tiled_gemm(call, stream);
    }
}

}  // namespace

ndarray matmul(const ndarray& a, const ndarray& b, const MatmulOptions& options) {
    const StreamView stream = detail::call_context("matmul", options.stream, a.device());
    detail::CrossDeviceOrder order(stream);
    order.reach("matmul", "a", a);
    order.reach("matmul", "b", b);
    if (options.out) {
        order.reach("matmul", "out", *options.out);
    }
    for (const ndarray* operand : {&a, &b}) {
        if (operand->ndim() == 0) {
            throw ValueError("kiln: matmul: operand " + std::to_string(operand == &a ? 0 : 1) +
                             " is 0-d; matmul takes arrays of one axis or more (multiply takes "
                             "scalars)");
        }
    }
    const DType dtype = compute_dtype("matmul", a, b, options.dtype);
    const ndarray a2 = a.ndim() == 1 ? a.reshape({1, a.shape()[0]}) : a;
    const ndarray b2 = b.ndim() == 1 ? b.reshape({b.shape()[0], 1}) : b;
    const ProductShape p = product_shape(a, b, a2, b2);
    if (options.out) {
        check_out("matmul", *options.out, p.result, dtype);
    }
    // The product is written straight into `out` only when no operand shares its memory: every
    // element of C reads a row and a column that other elements' writes would change.
    const bool direct = options.out && options.out->c_contiguous() &&
                        options.out->dtype() == dtype && !may_share_memory(*options.out, a) &&
                        !may_share_memory(*options.out, b);
    ndarray c = direct ? *options.out : detail::empty_on(p.result, dtype, stream);
    multiply_into(c, a2, b2, p, dtype, stream);
    if (!options.out || direct) {
        order.done();
        return c;
    }
    detail::copy_into(*options.out, c, stream);
    order.done();
    return *options.out;
}

ndarray dot(const ndarray& a, const ndarray& b, const MatmulOptions& options) {
    if (a.ndim() == 0 || b.ndim() == 0) {
        return multiply(a, b, {options.out, options.dtype, options.stream});
    }
    if (a.ndim() == 1 || b.ndim() <= 2) {
        return matmul(a, b, options);
    }
    const StreamView stream = detail::call_context("dot", options.stream, a.device());
    detail::CrossDeviceOrder devices(stream);
    if (options.out) {
        devices.reach("dot", "out", *options.out);
    }
    // Every row of a against every matrix of b: b's second to last axis moves first.
    const std::int64_t k = a.shape().back();
    if (b.shape().end()[-2] != k) {
        throw ValueError("kiln: dot: operand 0's last axis has " + std::to_string(k) +
                         " elements and operand 1's second to last " +
                         std::to_string(b.shape().end()[-2]) + "; they must be equal");
    }
    std::vector<std::int64_t> order{b.ndim() - 2};
    for (std::int64_t axis = 0; axis < b.ndim(); ++axis) {
        if (axis != b.ndim() - 2) {
            order.push_back(axis);
        }
    }
    const ndarray rows = a.reshape({-1, k});
    const ndarray columns = b.transpose(order).reshape({k, -1});
    Shape shape(a.shape().begin(), a.shape().end() - 1);
    shape.insert(shape.end(), b.shape().begin(), b.shape().end() - 2);
    shape.push_back(b.shape().back());
    ndarray result = matmul(rows, columns, {std::nullopt, options.dtype, stream}).reshape(shape);
    if (!options.out) {
        return result;
    }
    check_out("dot", *options.out, shape, result.dtype());
    detail::copy_into(*options.out, result, stream);
    devices.done();
    return *options.out;
}

}  // namespace kiln
