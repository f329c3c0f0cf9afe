// The host dialect's own device files (device/kiln/), embedded into libkiln at build time
// (dialects/host/CMakeLists.txt); core/codegen/device_header_texts.hpp declares the shared ones.
#pragma once

#include "../../core/codegen/device_header_texts.hpp"

namespace kiln::detail::host_dialect::device_file {

using header_text::DeviceFile;

[[nodiscard]] DeviceFile atomic_h() noexcept;
[[nodiscard]] DeviceFile host_h() noexcept;
// The host kernel ABI, which host.h includes and libkiln compiles in too.
[[nodiscard]] DeviceFile host_abi_h() noexcept;
// The host's CUDA dialect (user sources): its prelude, and the types and functions it includes.
[[nodiscard]] DeviceFile host_cuda_h() noexcept;
[[nodiscard]] DeviceFile host_cuda_math_h() noexcept;
[[nodiscard]] DeviceFile warp_h() noexcept;
// Kernels, whole (each KILN_HOST_KERNEL included), after the typedefs and macros their writers set
// (matmul.cpp, scan.cpp).
[[nodiscard]] DeviceFile matmul_cuh() noexcept;
// The lanes, tiles and runs of a reduction's sweeps, after _type_reduce (reduction_source.cpp).
[[nodiscard]] DeviceFile reduction_sweep_h() noexcept;
[[nodiscard]] DeviceFile scan_chunks_cuh() noexcept;
[[nodiscard]] DeviceFile scan_rows_cuh() noexcept;

}  // namespace kiln::detail::host_dialect::device_file
