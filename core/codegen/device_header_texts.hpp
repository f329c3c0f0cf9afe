// The text of each of kiln's device headers (device_prelude.hpp lists them by include name).
// Each is plain CUDA/HIP C++ that compiles under NVRTC and HIPRTC without vendor headers, and
// under the host compiler after host.h; atomic.h and warp.h have texts of their own for the host.
#pragma once

#include <string>
#include <string_view>

namespace kiln::detail::header_text {

[[nodiscard]] std::string_view complex_h() noexcept;
[[nodiscard]] std::string_view float16_h() noexcept;
[[nodiscard]] std::string_view limits_h() noexcept;
[[nodiscard]] std::string_view atomic_h() noexcept;
[[nodiscard]] std::string_view device_h() noexcept;
[[nodiscard]] std::string_view ufunc_h() noexcept;
// The warp size is written into the text as a literal, for the target being compiled.
[[nodiscard]] std::string warp_h(int warp_size);
[[nodiscard]] std::string_view host_h() noexcept;
// The host's CUDA dialect (user sources): its prelude, and the types and functions it includes.
[[nodiscard]] std::string_view host_cuda_h() noexcept;
[[nodiscard]] std::string_view host_cuda_math_h() noexcept;
[[nodiscard]] std::string_view host_atomic_h() noexcept;
[[nodiscard]] std::string host_warp_h(int warp_size);

}  // namespace kiln::detail::header_text
