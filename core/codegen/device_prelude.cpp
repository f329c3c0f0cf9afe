#include "device_prelude.hpp"

#include "device_header_texts.hpp"

#include "../backend_traits.hpp"
#include "kernel_dialect.hpp"

#include <algorithm>

#include <kiln/error.hpp>

namespace kiln::detail {

namespace {

std::vector<DialectHeader> header_files(BackendKind backend) {
    namespace text = header_text;
    std::vector<DialectHeader> files = {
        {"kiln/complex.h", text::complex_h()}, {"kiln/device.h", text::device_h()},
        {"kiln/float16.h", text::float16_h()}, {"kiln/limits.h", text::limits_h()},
        {"kiln/ufunc.h", text::ufunc_h()},
    };
    for (const DialectHeader& own : traits(backend).dialect().device_headers()) {
        files.push_back(own);
    }
    // In name order, whatever the dialect, so that the compile key does not depend on it.
    std::sort(files.begin(), files.end(),
              [](const DialectHeader& a, const DialectHeader& b) { return a.name < b.name; });
    return files;
}

// The warp headers' files spell 32; a target's literal replaces it, so that its constant
// expressions see the target's size.
std::string with_warp_size(std::string_view text, int warp_size) {
    constexpr std::string_view file_line = "#define KILN_WARP_SIZE 32\n";
    const auto at = text.find(file_line);
    if (at == std::string_view::npos || text.find(file_line, at + 1) != std::string_view::npos) {
        throw Error("device_headers: kiln/warp.h must define KILN_WARP_SIZE as 32 exactly once");
    }
    std::string spliced(text.substr(0, at));
    spliced += "#define KILN_WARP_SIZE " + std::to_string(warp_size) + "\n";
    spliced += text.substr(at + file_line.size());
    return spliced;
}

}  // namespace

std::vector<DeviceHeader> device_headers(BackendKind backend, std::string_view target) {
    const int warp_size = traits(backend).warp_size(target);
    std::vector<DeviceHeader> headers;
    for (const auto& [name, file] : header_files(backend)) {
        headers.push_back({std::string(name), name == "kiln/warp.h"
                                                  ? with_warp_size(file.text, warp_size)
                                                  : std::string(file.text)});
    }
    return headers;
}

std::string device_headers_fingerprint(BackendKind backend, std::string_view target) {
    std::string fingerprint;
    for (const auto& [name, file] : header_files(backend)) {
        fingerprint.append(name).append(" ").append(file.sha256).append("\n");
    }
    return fingerprint + "warp size " + std::to_string(traits(backend).warp_size(target)) + "\n";
}

std::string_view device_prelude() noexcept {
    return "#include <kiln/device.h>\n";
}

}  // namespace kiln::detail
