#include "device_prelude.hpp"

#include "device_header_texts.hpp"

#include <optional>

namespace kiln::detail {

namespace {

// The AMD processor's major version: "gfx90a" -> 9, "gfx1030" -> 10, "gfx10-3-generic" -> 10;
// nothing for a name that is not gfx<version>, which the compiler's target check refuses anyway.
// A processor name is gfx, the major, then one digit of minor and one of stepping.
std::optional<int> amd_major_version(std::string_view target) {
    std::string_view version = target.substr(0, target.find(':'));
    if (!version.starts_with("gfx")) {
        return std::nullopt;
    }
    version.remove_prefix(3);
    if (const auto dash = version.find('-'); dash != std::string_view::npos) {
        version = version.substr(0, dash);
    } else if (version.size() >= 3) {
        version.remove_suffix(2);
    } else {
        return std::nullopt;
    }
    int major = 0;
    for (const char c : version) {
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
        major = major * 10 + (c - '0');
    }
    return version.empty() ? std::nullopt : std::optional<int>(major);
}

}  // namespace

int warp_size(BackendKind backend, std::string_view target) {
    if (backend == BackendKind::cuda) {
        return 32;
    }
    return amd_major_version(target).value_or(0) >= 10 ? 32 : 64;
}

std::vector<DeviceHeader> device_headers(BackendKind backend, std::string_view target) {
    namespace text = header_text;
    return {
        {"kiln/atomic.h", std::string(text::atomic_h())},
        {"kiln/complex.h", std::string(text::complex_h())},
        {"kiln/device.h", std::string(text::device_h())},
        {"kiln/float16.h", std::string(text::float16_h())},
        {"kiln/limits.h", std::string(text::limits_h())},
        {"kiln/warp.h", text::warp_h(warp_size(backend, target))},
    };
}

std::string_view device_prelude() noexcept {
    return "#include <kiln/device.h>\n";
}

}  // namespace kiln::detail
