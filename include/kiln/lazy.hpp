/// @file
/// Lazy fusion of elementwise routines. When on, a ufunc, operator or where on ndarrays returns an
/// ndarray whose elements are computed later: the chain of such calls becomes one generated kernel,
/// launched on the stream it was issued on when its value is first read (a copy, transfer,
/// kernel call, reduction, view or raw data access), when that stream is synchronized, recorded,
/// waited on, captured or asked whether it is done, or a graph is launched on it (another stream's
/// expressions stay pending), when its device is synchronized, when the expression grows past a
/// bounded size, or when memory runs short (an allocation that fails runs the device's deferred
/// expressions, freeing the inputs only they hold, and is tried once more). A reduction of such
/// an array (any of them: sum to argmin, the NaN-ignoring forms, all, any, count_nonzero, a vector
/// norm; with a dtype, and into an out of the result's dtype) fuses the chain into its map, so
/// mean((a - b) * (a - b)) is one reduction kernel. Scalars are kernel arguments, and a chain
/// that repeats one step with new scalars (x = x * s + t in a loop) is one kernel whatever its
/// length, so such loops compile once. Shapes and dtypes are checked at the call, as
/// eagerly, and the values are bitwise the eager ones. On by default: KILN_LAZY=0 at start turns it
/// off (KILN_LAZY=1 keeps it on; any other value is an Error), set_lazy_fusion switches it, and
/// LazyFusionScope switches it for a scope.
#pragma once

namespace kiln {

/// Turns lazy fusion on or off for the whole process (expressions already deferred stay so).
void set_lazy_fusion(bool enabled);

/// Whether lazy fusion is on: off when KILN_LAZY=0 at start, else on, until set_lazy_fusion.
[[nodiscard]] bool lazy_fusion();

/// Lazy fusion on or off while the scope lives, then back to what it was (scopes nest). The
/// switch is the process's, as set_lazy_fusion's: other threads see it too.
class LazyFusionScope {
public:
    /// Turns lazy fusion on or off, remembering the setting it replaces.
    explicit LazyFusionScope(bool enabled);
    /// Restores the setting the constructor replaced.
    ~LazyFusionScope();
    LazyFusionScope(const LazyFusionScope&) = delete;
    LazyFusionScope& operator=(const LazyFusionScope&) = delete;
    LazyFusionScope(LazyFusionScope&&) = delete;
    LazyFusionScope& operator=(LazyFusionScope&&) = delete;

private:
    bool previous_;
};

}  // namespace kiln
