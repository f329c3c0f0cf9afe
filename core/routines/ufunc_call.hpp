// Runs a ufunc: the loop and output dtypes from its inputs (NEP 50) and options, the checks that
// name the ufunc and the argument, then the ElementwiseKernel of its definition and loop dtype,
// built once per process.
#pragma once

#include "ufunc_definition.hpp"

#include <kiln/elementwise_kernel.hpp>
#include <kiln/ufuncs.hpp>

#include <span>

namespace kiln::detail {

[[nodiscard]] ndarray call_ufunc(const UfuncDefinition& ufunc, std::span<const Argument> args,
                                 const UfuncOptions& options);

// numpy.where(condition, x, y): args are the three; the condition takes no part in promotion.
[[nodiscard]] ndarray call_where(std::span<const Argument> args, const UfuncOptions& options);

// The loop dtype of `ufunc` for inputs whose promoted dtype is `promoted`.
[[nodiscard]] DType loop_dtype(const UfuncDefinition& ufunc, DType promoted);

// The dtype `ufunc` returns from loop dtype `loop`.
[[nodiscard]] DType output_dtype(const UfuncDefinition& ufunc, DType loop);

// The kernel of `ufunc` on loop dtype `loop` writing dtype `out`, built once per process.
[[nodiscard]] const ElementwiseKernel& ufunc_kernel(const UfuncDefinition& ufunc, DType loop,
                                                    DType out);

// The ElementwiseKernel operation of `ufunc` on loop dtype `loop` writing `out`; throws TypeError
// naming the ufunc when it does not take the loop dtype's kind.
[[nodiscard]] std::string ufunc_operation(const UfuncDefinition& ufunc, DType loop, DType out);

// where's ElementwiseKernel operation: z from condition `q` and values `x`, `y` in loop dtype
// `loop`, written as `out`.
[[nodiscard]] std::string where_operation(DType loop, DType out);

}  // namespace kiln::detail
