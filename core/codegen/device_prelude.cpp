#include "device_prelude.hpp"

#include "device_header_texts.hpp"

#include "../backend_traits.hpp"

namespace kiln::detail {

std::vector<DeviceHeader> device_headers(BackendKind backend, std::string_view target) {
    namespace text = header_text;
    const bool host = traits(backend).dialect == Dialect::host;
    const int warp_size = traits(backend).warp_size(target);
    std::vector<DeviceHeader> headers = {
        {"kiln/atomic.h", std::string(host ? text::host_atomic_h() : text::atomic_h())},
        {"kiln/complex.h", std::string(text::complex_h())},
        {"kiln/device.h", std::string(text::device_h())},
        {"kiln/float16.h", std::string(text::float16_h())},
        {"kiln/limits.h", std::string(text::limits_h())},
        {"kiln/ufunc.h", std::string(text::ufunc_h())},
        {"kiln/warp.h", host ? text::host_warp_h(warp_size) : text::warp_h(warp_size)},
    };
    if (host) {
        headers.push_back({"kiln/host.h", std::string(text::host_h())});
        headers.push_back({"kiln/host_cuda.h", std::string(text::host_cuda_h())});
        headers.push_back({"kiln/host_cuda_math.h", std::string(text::host_cuda_math_h())});
    }
    return headers;
}

std::string_view device_prelude() noexcept {
    return "#include <kiln/device.h>\n";
}

}  // namespace kiln::detail
