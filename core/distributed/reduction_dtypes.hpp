// The dtypes NumPy gives the reductions of a distributed array, shared by the reductions over
// every element and along one axis.
#pragma once

#include <kiln/dtype.hpp>

namespace kiln::distributed::detail {

// numpy.mean's dtype: float64 for bool and integers, the array's own otherwise.
[[nodiscard]] constexpr DType mean_dtype(DType dtype) {
    const char k = kind(dtype);
    return k == 'b' || k == 'i' || k == 'u' ? float64 : dtype;
}

// The dtype a mean, variance or norm accumulates in: mean_dtype, with float16 widened to
// float32 as kiln's own reductions do (the result casts back).
[[nodiscard]] constexpr DType accumulate_dtype(DType dtype) {
    return dtype == float16 ? float32 : mean_dtype(dtype);
}

}  // namespace kiln::distributed::detail
