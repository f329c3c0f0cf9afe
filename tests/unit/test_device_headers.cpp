// The device headers' host side: which headers there are, the warp size they spell, and their
// texts and hashes as embedded at build time.
#include "core/codegen/device_header_texts.hpp"
#include "core/codegen/device_prelude.hpp"
#include "core/compile/sha256.hpp"
#include "dialects/gpu/device_files.hpp"
#include "dialects/host/device_files.hpp"

#include <kiln/config.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

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

// Each embedded header is its file in the source tree, byte for byte, with the SHA-256 that CMake
// computed at build time, checked against libcrypto's.
TEST(DeviceHeaders, EmbeddedTextsAreTheFilesWithTheirHashes) {
    namespace text = kiln::detail::header_text;
    namespace gpu = kiln::detail::gpu_dialect::device_file;
    namespace host = kiln::detail::host_dialect::device_file;
    const std::vector<std::pair<std::string, text::DeviceFile>> files = {
        {"dialects/gpu/device/kiln/atomic.h", gpu::atomic_h()},
        {"core/codegen/device/kiln/box_muller.h", text::box_muller_h()},
        {"core/codegen/device/kiln/complex.h", text::complex_h()},
        {"core/codegen/device/kiln/device.h", text::device_h()},
        {"core/codegen/device/kiln/float16.h", text::float16_h()},
        {"core/codegen/device/kiln/limits.h", text::limits_h()},
        {"core/codegen/device/kiln/ufunc.h", text::ufunc_h()},
        {"core/codegen/device/kiln/dims.h", text::dims_h()},
        {"core/codegen/device/kiln/elementwise_support.h", text::elementwise_support_h()},
        {"core/codegen/device/kiln/philox.h", text::philox_h()},
        {"core/codegen/device/kiln/reduction_support.h", text::reduction_support_h()},
        {"core/codegen/device/kiln/scan_column.cuh", text::scan_column_cuh()},
        {"dialects/gpu/device/kiln/block_reduce.cuh", gpu::block_reduce_cuh()},
        {"dialects/gpu/device/kiln/block_reduce_flagged.cuh", gpu::block_reduce_flagged_cuh()},
        {"dialects/gpu/device/kiln/matmul.cuh", gpu::matmul_cuh()},
        {"dialects/gpu/device/kiln/scan_rows.cuh", gpu::scan_rows_cuh()},
        {"dialects/gpu/device/kiln/warp.h", gpu::warp_h()},
        {"dialects/host/device/kiln/atomic.h", host::atomic_h()},
        {"dialects/host/device/kiln/host.h", host::host_h()},
        {"dialects/host/device/kiln/host_abi.h", host::host_abi_h()},
        {"dialects/host/device/kiln/host_cuda.h", host::host_cuda_h()},
        {"dialects/host/device/kiln/host_cuda_math.h", host::host_cuda_math_h()},
        {"dialects/host/device/kiln/warp.h", host::warp_h()},
        {"dialects/host/device/kiln/matmul.cuh", host::matmul_cuh()},
        {"dialects/host/device/kiln/reduction_sweep.h", host::reduction_sweep_h()},
        {"dialects/host/device/kiln/scan_chunks.cuh", host::scan_chunks_cuh()},
        {"dialects/host/device/kiln/scan_rows.cuh", host::scan_rows_cuh()},
    };
    for (const auto& [path, file] : files) {
        SCOPED_TRACE(path);
        std::ifstream in(std::string(KILN_SOURCE_DIR) + "/" + path, std::ios::binary);
        ASSERT_TRUE(in.is_open());
        const std::string on_disk{std::istreambuf_iterator<char>(in), {}};
        EXPECT_EQ(file.text, on_disk);
        EXPECT_EQ(file.sha256, kiln::detail::sha256_hex(on_disk));
    }
}

// The fingerprint names every header with its text's hash (at warp size 32 the warp header's text
// is its file's), and the warp size, so targets of two warp sizes never share a key.
TEST(DeviceHeaders, FingerprintHasEachHeadersHashAndTheWarpSize) {
    for (const auto backend : {BackendKind::cuda, BackendKind::host}) {
        const auto fingerprint = kiln::detail::device_headers_fingerprint(backend, "sm_90");
        std::string expected;
        for (const auto& header : device_headers(backend, "sm_90")) {
            expected += header.name + " " + kiln::detail::sha256_hex(header.text) + "\n";
        }
        EXPECT_EQ(fingerprint, expected + "warp size 32\n");
    }
    if (KILN_HIP_NVIDIA == 0) {
        EXPECT_NE(kiln::detail::device_headers_fingerprint(BackendKind::hip, "gfx90a"),
                  kiln::detail::device_headers_fingerprint(BackendKind::hip, "gfx1030"));
    }
}

}  // namespace
