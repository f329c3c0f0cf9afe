// Kernels kiln runs for its own array operations: strided copies with dtype conversion (copy,
// astype, non-contiguous transfers), fills, arange and linspace. Each is generated per dtype,
// compiled once per device, and launched on the given stream.
#pragma once

#include "../../backend.hpp"
#include "../../codegen/kernel_dialect.hpp"

#include <kiln/dtype.hpp>
#include <kiln/scalar.hpp>
#include <kiln/stream_view.hpp>

#include <cstdint>
#include <functional>
#include <span>
#include <string>

namespace kiln::detail {

// Elements at `data` with per-axis byte strides, as an ndarray lays them out.
struct StridedElements {
    void* data;
    DType dtype;
    std::span<const std::int64_t> strides;
};

// The most axes a built-in kernel handles (NumPy 1.x's limit).
inline constexpr std::size_t max_builtin_ndim = 32;

// The device expression converting `s` of type `from` to type `to`, with NumPy's meaning: a
// complex value gives a real dtype its real part, and anything non-zero is true.
[[nodiscard]] std::string conversion(DType from, DType to);

// The generated sources, one per variant (exposed so that tests compile every one).
[[nodiscard]] std::string copy_source(DType from, DType to, const KernelDialect& dialect);
[[nodiscard]] std::string fill_source(std::size_t item_bytes, const KernelDialect& dialect);
[[nodiscard]] std::string range_source(DType dtype, const KernelDialect& dialect);

// dst[index] = src[index] converted to dst's dtype, for every index of `shape`.
void copy_elements(std::span<const std::int64_t> shape, const StridedElements& dst,
                   const StridedElements& src, StreamView stream);

// dst[index] = value for every index of `shape`.
void fill_elements(std::span<const std::int64_t> shape, const StridedElements& dst,
                   const Scalar& value, StreamView stream);

// out[i] = start + i * step for i < count, into contiguous elements of `dtype` (a real dtype).
void arange_elements(void* out, DType dtype, std::int64_t count, double start, double step,
                     StreamView stream);

// numpy.linspace's values into contiguous elements of `dtype` (integer dtypes round down).
void linspace_elements(void* out, DType dtype, std::int64_t count, double start, double stop,
                       bool endpoint, StreamView stream);

}  // namespace kiln::detail
