#include "device_prelude.hpp"

#include "device_header_texts.hpp"

#include "../backend_traits.hpp"
#include "kernel_dialect.hpp"

#include <algorithm>

namespace kiln::detail {

std::vector<DeviceHeader> device_headers(BackendKind backend, std::string_view target) {
    namespace text = header_text;
    const BackendTraits& facts = traits(backend);
    std::vector<DeviceHeader> headers = {
        {"kiln/complex.h", std::string(text::complex_h())},
        {"kiln/device.h", std::string(text::device_h())},
        {"kiln/float16.h", std::string(text::float16_h())},
        {"kiln/limits.h", std::string(text::limits_h())},
        {"kiln/ufunc.h", std::string(text::ufunc_h())},
    };
    for (DeviceHeader& own : facts.dialect().device_headers(facts.warp_size(target))) {
        headers.push_back(std::move(own));
    }
    // In name order, whatever the dialect, so that the compile key does not depend on it.
    std::sort(headers.begin(), headers.end(),
              [](const DeviceHeader& a, const DeviceHeader& b) { return a.name < b.name; });
    return headers;
}

std::string_view device_prelude() noexcept {
    return "#include <kiln/device.h>\n";
}

}  // namespace kiln::detail
