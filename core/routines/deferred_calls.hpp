// Where the routines hand a call to lazy fusion (include/kiln/lazy.hpp). Lazy fusion builds on
// the routines' tables, so these are defined above them, in core/fusion/lazy_calls.cpp. Each
// returns nothing when lazy fusion is off or the call is not one it takes; the caller then runs
// it eagerly, with the eager checks and messages.
#pragma once

#include "reduction_routine.hpp"
#include "ufunc_definition.hpp"

#include <kiln/argument.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/reduction_kernel.hpp>
#include <kiln/scalar.hpp>
#include <kiln/stream_view.hpp>

#include <optional>
#include <span>

namespace kiln::detail {

// `ufunc` of `args`, already checked: loop dtype `loop`, result dtype `result`, broadcast `shape`.
[[nodiscard]] std::optional<ndarray> defer_ufunc(const UfuncDefinition& ufunc,
                                                 std::span<const Argument> args, DType loop,
                                                 DType result, const Shape& shape,
                                                 std::optional<StreamView> stream);

// where(condition, x, y), already checked: values in `loop`, broadcast `shape`.
[[nodiscard]] std::optional<ndarray> defer_where(std::span<const Argument> args, DType loop,
                                                 const Shape& shape,
                                                 std::optional<StreamView> stream);

// a.astype(dtype), a conversion as the eager copy kernel's, on the current stream.
[[nodiscard]] std::optional<ndarray> defer_astype(const ndarray& a, DType dtype);

// `routine` of a deferred array, its elementwise expression fused into the reduction's map,
// accumulating in `accumulator` and returning `result` (the eager call's dtypes, a requested
// dtype's included); `parameter` is the routine's scalar parameter (ddof, ord), a kernel argument.
[[nodiscard]] std::optional<ndarray> fused_reduction(const ReductionRoutine& routine,
                                                     const ndarray& a, DType accumulator,
                                                     DType result,
                                                     const ReductionCallOptions& options,
                                                     const std::optional<Scalar>& parameter);

}  // namespace kiln::detail
