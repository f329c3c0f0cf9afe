// The GPU dialect's own device files (device/kiln/), embedded into libkiln at build time
// (dialects/gpu/CMakeLists.txt); core/codegen/device_header_texts.hpp declares the shared ones.
#pragma once

#include "../../core/codegen/device_header_texts.hpp"

namespace kiln::detail::gpu_dialect::device_file {

using header_text::DeviceFile;

[[nodiscard]] DeviceFile atomic_h() noexcept;
// The file spells a warp size of 32; device_headers writes in the target's.
[[nodiscard]] DeviceFile warp_h() noexcept;
// Kernel code, after the typedefs and macros their writers set (reduction_source.cpp,
// matmul.cpp, scan.cpp).
[[nodiscard]] DeviceFile block_reduce_cuh() noexcept;
[[nodiscard]] DeviceFile block_reduce_flagged_cuh() noexcept;
[[nodiscard]] DeviceFile matmul_cuh() noexcept;
[[nodiscard]] DeviceFile scan_rows_cuh() noexcept;

}  // namespace kiln::detail::gpu_dialect::device_file
