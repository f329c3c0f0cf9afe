/// @file
/// NumPy's linear algebra on kiln arrays, with CuPy's names: matmul and dot (cupy.matmul,
/// cupy.dot) and the norms of cupy.linalg.
#pragma once

#include <kiln/dtype.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/reduction_kernel.hpp>
#include <kiln/stream_view.hpp>

#include <optional>

namespace kiln {

/// The options of matmul (NumPy's keyword arguments).
struct MatmulOptions {
    /// Written in place: the result's shape, and a dtype the result casts to at 'same_kind'.
    std::optional<ndarray> out;
    /// The dtype to compute in and return; both operands cast to it at 'same_kind'.
    std::optional<DType> dtype;
    std::optional<StreamView> stream;  ///< default: the arrays' device's current stream
};

/// numpy.matmul: the product of the last two axes, broadcast over the others; a 1-D operand is a
/// row (first) or a column (second) vector whose axis leaves the result. float32, float64,
/// complex64 and complex128 run through the vendor's BLAS when one loads (cuBLAS on CUDA), the
/// other integer and floating dtypes, and every dtype without a BLAS, through kiln's own tiled
/// kernel; float16 accumulates in float32. The operands promote as NumPy's; bool is not taken.
ndarray matmul(const ndarray& a, const ndarray& b, const MatmulOptions& options = {});

/// numpy.dot: the sum over a's last axis and b's second to last (b's only axis when it is 1-D);
/// matmul for one- and two-dimensional operands, the product when either is 0-d.
ndarray dot(const ndarray& a, const ndarray& b, const MatmulOptions& options = {});

}  // namespace kiln

namespace kiln::linalg {

/// The options of norm (NumPy's keyword arguments).
struct NormOptions {
    /// The norm's order. Of vectors: none or 2 (the Euclidean norm), any p (sum(|x|^p)^(1/p)), 1,
    /// 0 (the count of nonzero elements), and ±infinity (max or min |x|). Of matrices (two axes):
    /// none (Frobenius), 1 and -1 (max and min column sum of |x|), ±infinity (of row sums); 2, -2
    /// and the nuclear norm need a singular value decomposition, which kiln does not have yet.
    std::optional<double> ord;
    /// One axis (vector norms) or two (matrix norms). Default: every axis; then `ord` must be
    /// none (the Euclidean norm of the flattened array) or the array must have one or two axes.
    Axis axis;
    /// Keep the reduced axes as extent 1.
    bool keepdims = false;
    std::optional<StreamView> stream;  ///< default: the arrays' device's current stream
};

/// The norm of `x`, as numpy.linalg.norm: float64 of integer and bool arrays, the real part's
/// dtype of complex ones; float16 accumulates in float32.
ndarray norm(const ndarray& x, const NormOptions& options = {});

}  // namespace kiln::linalg
