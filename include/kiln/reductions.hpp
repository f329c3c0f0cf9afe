// NumPy's reductions on kiln arrays, with CuPy's names: over `axis` (every axis by default),
// keeping reduced axes with `keepdims`, in `dtype`, into `out`. Each runs as one ReductionKernel
// per reduction and dtypes, compiled once and cached like every other.
//
// Dtypes follow NumPy: sum and prod of bool and integers smaller than 64 bits accumulate and
// return int64 (uint64 for unsigned); mean of bool and integers is float64; float16 accumulates
// in float32 and returns float16, as CuPy's does; max and min keep the dtype and propagate NaN,
// and an empty max or min is an error; all, any return bool and count_nonzero int64.
#pragma once

#include <kiln/dtype.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/reduction_kernel.hpp>
#include <kiln/stream_view.hpp>

#include <optional>

namespace kiln {

struct ReduceOptions {
    Axis axis;  // default: every axis
    // The dtype to accumulate in and return (sum, prod, mean); every input casts to it at
    // 'same_kind'.
    std::optional<DType> dtype;
    // Written in place: the reduced shape, and a dtype the result casts to at 'same_kind'.
    std::optional<ndarray> out;
    bool keepdims = false;             // keep reduced axes as extent 1
    std::optional<StreamView> stream;  // default: the current stream
};

ndarray sum(const ndarray& a, const ReduceOptions& options = {});
ndarray prod(const ndarray& a, const ReduceOptions& options = {});
ndarray mean(const ndarray& a, const ReduceOptions& options = {});
ndarray max(const ndarray& a, const ReduceOptions& options = {});
ndarray min(const ndarray& a, const ReduceOptions& options = {});
ndarray amax(const ndarray& a, const ReduceOptions& options = {});
ndarray amin(const ndarray& a, const ReduceOptions& options = {});
ndarray all(const ndarray& a, const ReduceOptions& options = {});
ndarray any(const ndarray& a, const ReduceOptions& options = {});
ndarray count_nonzero(const ndarray& a, const ReduceOptions& options = {});

}  // namespace kiln
