/// @file
/// Lazy fusion of elementwise routines. When on, a ufunc, operator or where on ndarrays returns an
/// ndarray whose elements are computed later: the chain of such calls becomes one generated kernel,
/// launched on the stream it was issued on when its value is first read (a copy, transfer,
/// kernel call, reduction, view or raw data access), when a stream or device is synchronized,
/// recorded, waited on or captured, or when the expression grows past a bounded size. A reduction
/// (sum, prod, mean, max, min) of such an array fuses the chain into its map, so
/// mean((a - b) * (a - b)) is one reduction kernel. Shapes and dtypes are checked at the call, as
/// eagerly, and the values are bitwise the eager ones. Off by default; KILN_LAZY=1 turns it on at
/// start.
#pragma once

namespace kiln {

/// Turns lazy fusion on or off for the whole process (expressions already deferred stay so).
void set_lazy_fusion(bool enabled);

/// Whether lazy fusion is on: KILN_LAZY=1 at start, else off, until set_lazy_fusion.
[[nodiscard]] bool lazy_fusion();

}  // namespace kiln
