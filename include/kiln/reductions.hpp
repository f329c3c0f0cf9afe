/// @file
/// NumPy's reductions on kiln arrays, with CuPy's names: over `axis` (every axis by default),
/// keeping reduced axes with `keepdims`, in `dtype`, into `out`. Each runs as one ReductionKernel
/// per reduction and dtypes, compiled once and cached like every other.
///
/// Dtypes follow NumPy: sum and prod of bool and integers smaller than 64 bits accumulate and
/// return int64 (uint64 for unsigned); mean, var and std of bool and integers are float64, and var
/// and std of complex arrays are real; float16 accumulates in float32 and returns float16, as
/// CuPy's does; max and min keep the dtype and propagate NaN, and an empty max or min is an error;
/// argmax and argmin return int64, the first index among equal values and the first NaN; all, any
/// return bool and count_nonzero int64.
///
/// The nan-forms ignore NaN: nansum and nanprod count it as 0 and 1, nanmean, nanvar and nanstd
/// leave it out of the count (a slice of NaN alone gives NaN, as NumPy's does after its warning),
/// nanmax and nanmin skip it (NaN only when the slice has nothing else). Of arrays that cannot
/// hold NaN they are the plain reductions.
#pragma once

#include <kiln/dtype.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/reduction_kernel.hpp>
#include <kiln/stream_view.hpp>

#include <concepts>
#include <optional>

namespace kiln {

/// The options of the reductions in this header (NumPy's keyword arguments).
struct ReduceOptions {
    Axis axis;  ///< default: every axis; argmax and argmin take one axis or every axis
    /// The dtype to accumulate in and return (sum, prod, mean, var, std and their nan-forms; var
    /// and std return its real part); every input casts to it at 'same_kind'.
    std::optional<DType> dtype;
    /// Written in place: the reduced shape, and a dtype the result casts to at 'same_kind'.
    std::optional<ndarray> out;
    bool keepdims = false;             ///< keep reduced axes as extent 1
    std::optional<StreamView> stream;  ///< default: the arrays' device's current stream
    /// var and std (and nanvar, nanstd) divide by N - ddof; the other reductions take none.
    int ddof = 0;
};

/// The sum of the elements (numpy.sum).
ndarray sum(const ndarray& a, const ReduceOptions& options = {});
/// The product of the elements (numpy.prod).
ndarray prod(const ndarray& a, const ReduceOptions& options = {});
/// The arithmetic mean (numpy.mean).
ndarray mean(const ndarray& a, const ReduceOptions& options = {});
/// The variance, the mean squared deviation divided by N - ddof (numpy.var).
ndarray var(const ndarray& a, const ReduceOptions& options = {});
/// The standard deviation, sqrt(var) (numpy.std).
ndarray std(const ndarray& a, const ReduceOptions& options = {});
/// The largest element; NaN if any is NaN (numpy.max).
ndarray max(const ndarray& a, const ReduceOptions& options = {});
/// The smallest element; NaN if any is NaN (numpy.min).
ndarray min(const ndarray& a, const ReduceOptions& options = {});
/// The same as max (numpy.amax).
ndarray amax(const ndarray& a, const ReduceOptions& options = {});
/// The same as min (numpy.amin).
ndarray amin(const ndarray& a, const ReduceOptions& options = {});
/// The index of the largest element, as int64: a flat index over every axis, else along the one
/// axis (numpy.argmax).
ndarray argmax(const ndarray& a, const ReduceOptions& options = {});
/// The index of the smallest element, as int64: a flat index over every axis, else along the one
/// axis (numpy.argmin).
ndarray argmin(const ndarray& a, const ReduceOptions& options = {});
/// Whether every element is non-zero (numpy.all).
ndarray all(const ndarray& a, const ReduceOptions& options = {});
/// Whether some element is non-zero (numpy.any).
ndarray any(const ndarray& a, const ReduceOptions& options = {});
/// How many elements are non-zero, as int64 (numpy.count_nonzero).
ndarray count_nonzero(const ndarray& a, const ReduceOptions& options = {});

/// NumPy's positional form, sum(a, axis, keepdims), as fused functions write it too
/// (kiln/fuse.hpp). The axis is an int or an Axis: a braced list is ReduceOptions, so several
/// axes are written Axis{0, 2}.
template <class A>
concept axis_argument = std::convertible_to<A, Axis>;

#define KILN_POSITIONAL_REDUCTION(name)                                          \
    template <axis_argument A>                                                   \
    ndarray name(const ndarray& a, const A& axis, bool keepdims = false) {       \
        return name(a, ReduceOptions{.axis = Axis(axis), .keepdims = keepdims}); \
    }
KILN_POSITIONAL_REDUCTION(sum)
KILN_POSITIONAL_REDUCTION(prod)
KILN_POSITIONAL_REDUCTION(mean)
KILN_POSITIONAL_REDUCTION(max)
KILN_POSITIONAL_REDUCTION(min)
KILN_POSITIONAL_REDUCTION(amax)
KILN_POSITIONAL_REDUCTION(amin)
#undef KILN_POSITIONAL_REDUCTION

/// sum with NaN counted as 0 (numpy.nansum).
ndarray nansum(const ndarray& a, const ReduceOptions& options = {});
/// prod with NaN counted as 1 (numpy.nanprod).
ndarray nanprod(const ndarray& a, const ReduceOptions& options = {});
/// mean of the elements that are not NaN (numpy.nanmean).
ndarray nanmean(const ndarray& a, const ReduceOptions& options = {});
/// var of the elements that are not NaN (numpy.nanvar).
ndarray nanvar(const ndarray& a, const ReduceOptions& options = {});
/// std of the elements that are not NaN (numpy.nanstd).
ndarray nanstd(const ndarray& a, const ReduceOptions& options = {});
/// max skipping NaN (numpy.nanmax).
ndarray nanmax(const ndarray& a, const ReduceOptions& options = {});
/// min skipping NaN (numpy.nanmin).
ndarray nanmin(const ndarray& a, const ReduceOptions& options = {});

}  // namespace kiln
