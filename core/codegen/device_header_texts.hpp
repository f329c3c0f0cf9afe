// The text of each of kiln's device headers (device_prelude.hpp lists them by include name), from
// the files core/codegen/device/kiln/*.h (every dialect's) and dialects/<name>/device/kiln/*.h (a
// dialect's own), embedded into libkiln at build time (cmake/EmbedDeviceFiles.cmake). Each is
// plain CUDA/HIP C++ that compiles under NVRTC and HIPRTC without vendor headers, and under the
// host compiler after host.h; atomic.h and warp.h are each dialect's own.
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
[[nodiscard]] DeviceFile atomic_h() noexcept;
[[nodiscard]] DeviceFile device_h() noexcept;
[[nodiscard]] DeviceFile ufunc_h() noexcept;
// The file spells a warp size of 32; device_headers writes in the target's.
[[nodiscard]] DeviceFile warp_h() noexcept;
[[nodiscard]] DeviceFile host_h() noexcept;
// The host kernel ABI, which host.h includes and libkiln compiles in too.
[[nodiscard]] DeviceFile host_abi_h() noexcept;
// The host's CUDA dialect (user sources): its prelude, and the types and functions it includes.
[[nodiscard]] DeviceFile host_cuda_h() noexcept;
[[nodiscard]] DeviceFile host_cuda_math_h() noexcept;
[[nodiscard]] DeviceFile host_atomic_h() noexcept;
[[nodiscard]] DeviceFile host_warp_h() noexcept;

}  // namespace kiln::detail::header_text
