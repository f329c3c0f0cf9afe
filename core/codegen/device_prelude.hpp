// The device-side types every generated kernel sees: CuPy's spellings `complex<float>`,
// `complex<double>` and `float16`, defined by kiln itself so that the same text compiles under
// NVRTC and HIPRTC without vendor headers (HIPRTC 5.2 cannot include hip_complex.h, and NVRTC
// finds cuda_fp16.h only with the toolkit's include path).
#pragma once

#include <string_view>

namespace kiln::detail {

[[nodiscard]] std::string_view device_prelude() noexcept;

}  // namespace kiln::detail
