// The text of each device file every dialect shares, from core/codegen/device/kiln/, embedded into
// libkiln at build time (cmake/EmbedDeviceFiles.cmake). Each is plain CUDA/HIP C++ that compiles
// under NVRTC and HIPRTC without vendor headers, and under the host compiler after host.h. A
// dialect's own files (dialects/<name>/device/kiln/, kiln/atomic.h and kiln/warp.h among them)
// are embedded and declared in its folder (dialects/<name>/device_files.hpp).
#pragma once

#include <string_view>

namespace kiln::detail::header_text {

// A file's bytes, and their SHA-256 in lower-case hex, computed when libkiln was built.
struct DeviceFile {
    std::string_view text;
    std::string_view sha256;
};

[[nodiscard]] DeviceFile complex_h() noexcept;
[[nodiscard]] DeviceFile float16_h() noexcept;
[[nodiscard]] DeviceFile limits_h() noexcept;
[[nodiscard]] DeviceFile device_h() noexcept;
[[nodiscard]] DeviceFile ufunc_h() noexcept;
// Text that generated kernels carry rather than include. Built-in kernels' shapes and byte
// strides, and the byte offsets of a linear index (builtin_kernels.cpp).
[[nodiscard]] DeviceFile dims_h() noexcept;
// Philox4x32-10 of counter (k mod 2^32, k div 2^32, 0, 0) and key (seed mod 2^32, seed div 2^32),
// as the 64-bit words x and y; and the high half of a 64 x 64-bit product from 32-bit halves,
// which every device compiler has (random/kernels.cpp).
[[nodiscard]] DeviceFile philox_h() noexcept;
// The Box-Muller step's log and cos(2 pi u), after the KILN_BOX_MULLER_* macros that
// random/box_muller.cpp writes from its coefficients.
[[nodiscard]] DeviceFile box_muller_h() noexcept;
// The index, raw-array and tile types an ElementwiseKernel's loops use (elementwise_variant.cpp).
[[nodiscard]] DeviceFile elementwise_support_h() noexcept;
// The dims, index and storage types a ReductionKernel's kernels use (reduction_source.cpp).
[[nodiscard]] DeviceFile reduction_support_h() noexcept;
// One column's scan, after the scan's typedefs, KILN_IDENTITY and kiln_op (scan_kernels.cpp).
[[nodiscard]] DeviceFile scan_column_cuh() noexcept;

}  // namespace kiln::detail::header_text
