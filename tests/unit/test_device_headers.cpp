// The device headers' host side: which headers there are, and the warp size they spell.
#include "core/codegen/device_prelude.hpp"

#include <kiln/config.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using kiln::BackendKind;
using kiln::detail::device_headers;

TEST(DeviceHeaders, WarpHeaderCarriesTheTargetsLiteral) {
    auto warp_text = [](BackendKind backend, const char* target) {
        for (const auto& header : device_headers(backend, target)) {
            if (header.name == "kiln/warp.h") {
                return header.text;
            }
        }
        return std::string();
    };
    if (KILN_HIP_NVIDIA != 0) {
        // HIP's NVIDIA platform compiles for NVIDIA targets only.
        EXPECT_NE(warp_text(BackendKind::hip, "sm_90").find("#define KILN_WARP_SIZE 32\n"),
                  std::string::npos);
    } else {
        EXPECT_NE(warp_text(BackendKind::hip, "gfx90a").find("#define KILN_WARP_SIZE 64\n"),
                  std::string::npos);
        EXPECT_NE(warp_text(BackendKind::hip, "gfx1030").find("#define KILN_WARP_SIZE 32\n"),
                  std::string::npos);
    }
    EXPECT_NE(warp_text(BackendKind::cuda, "sm_90").find("#define KILN_WARP_SIZE 32\n"),
              std::string::npos);
}

// Generated kernels start with the prelude; everything it pulls in must be a header kiln hands
// the compiler, or the compile fails on a missing include.
TEST(DeviceHeaders, PreludeIncludesOnlyKilnsOwnHeaders) {
    const auto headers = device_headers(BackendKind::cuda, "sm_90");
    auto provided = [&](const std::string& name) {
        return std::any_of(headers.begin(), headers.end(),
                           [&](const auto& header) { return header.name == name; });
    };
    EXPECT_EQ(kiln::detail::device_prelude(), "#include <kiln/device.h>\n");
    std::size_t included_by_device_h = 0;
    for (const auto& header : headers) {
        for (auto at = header.text.find("#include <"); at != std::string::npos;
             at = header.text.find("#include <", at + 1)) {
            const auto start = at + 10;
            const auto name = header.text.substr(start, header.text.find('>', start) - start);
            EXPECT_TRUE(provided(name)) << header.name << " includes " << name;
            included_by_device_h += header.name == "kiln/device.h" ? 1 : 0;
        }
    }
    EXPECT_EQ(included_by_device_h, headers.size() - 2)
        << "kiln/device.h includes every header but itself and kiln/ufunc.h, which only the "
           "ufuncs' kernels include";
}

}  // namespace
