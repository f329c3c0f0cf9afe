/// @file
/// Cumulative sums and products (CuPy's cumsum and cumprod): inclusive scans along one axis, in one
/// pass over the data, compiled once per dtype and cached like every other kernel.
///
/// Dtypes follow NumPy as sum and prod do: bool and integers smaller than 64 bits accumulate and
/// return int64 (uint64 for unsigned); float16 accumulates in float32 and returns float16, as
/// CuPy's does. The parallel order of additions differs from a sequential loop's, so floating
/// results differ from NumPy's by rounding.
#pragma once

#include <kiln/dtype.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/stream_view.hpp>

#include <cstdint>
#include <optional>

namespace kiln {

/// The options of cumsum and cumprod (NumPy's keyword arguments).
struct ScanOptions {
    /// The axis to scan along. Default: the flattened array in C order, as NumPy's axis=None.
    std::optional<std::int64_t> axis;
    /// The dtype to accumulate in and return; the input casts to it at 'same_kind'.
    std::optional<DType> dtype;
    /// Written in place: the result's shape, and a dtype the result casts to at 'same_kind'.
    std::optional<ndarray> out;
    std::optional<StreamView> stream;  ///< default: the arrays' device's current stream
};

/// The cumulative sum (numpy.cumsum).
ndarray cumsum(const ndarray& a, const ScanOptions& options = {});
/// The cumulative product (numpy.cumprod).
ndarray cumprod(const ndarray& a, const ScanOptions& options = {});

}  // namespace kiln
