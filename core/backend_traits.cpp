#include "backend_traits.hpp"

#include "backend.hpp"

#include <kiln/config.hpp>
#include <kiln/error.hpp>

#include <dlpack/dlpack.h>

#include <array>
#include <optional>
#include <string>

namespace kiln::detail {

namespace gpu_dialect {
const KernelDialect& dialect();
}
namespace host_dialect {
const KernelDialect& dialect();
}

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

// 32 on every NVIDIA GPU.
int nvidia_warp_size(std::string_view /*target*/) {
    return 32;
}

// 64 for GCN and CDNA (gfx6xx to gfx9xx, gfx940 and on), 32 for RDNA (gfx10xx and later), whose
// HIP default is wave32. A target that is not a gfx name gets 64; no compiler accepts it.
int amd_warp_size(std::string_view target) {
    return amd_major_version(target).value_or(0) >= 10 ? 32 : 64;
}

// The host backend runs CUDA-dialect raw kernels with warps of 32 threads, as NVIDIA's do.
int host_warp_size(std::string_view /*target*/) {
    return 32;
}

// NVRTC's -G implies -lineinfo (naming both makes ptxas warn that it ignores one).
constexpr std::array<std::string_view, 1> nvrtc_debug = {"-G"};
constexpr std::array<std::string_view, 1> hiprtc_debug = {"-g"};
// Unoptimised, so that a debugger steps through a kernel line by line.
constexpr std::array<std::string_view, 2> host_debug = {"-g", "-O0"};
constexpr std::array<std::string_view, 1> nvrtc_rounding = {"--fmad=false"};
// HIPRTC and the host's C++ compilers (GCC, Clang) spell it alike.
constexpr std::array<std::string_view, 1> clang_rounding = {"-ffp-contract=off"};

constexpr BackendTraits cuda_traits{"cuda",      &gpu_dialect::dialect, false,   kDLCUDA,
                                    nvrtc_debug, nvidia_warp_size,      "sm_80", nvrtc_rounding};
constexpr BackendTraits hip_on_amd_traits{"hip",    &gpu_dialect::dialect, false,
                                          kDLROCM,  hiprtc_debug,          amd_warp_size,
                                          "gfx90a", clang_rounding};
// HIP's NVIDIA platform: HIP's API over CUDA memory, kernels compiled by NVRTC for NVIDIA GPUs
// (backends/hip/nvidia_platform.hpp).
constexpr BackendTraits hip_on_nvidia_traits{"hip",   &gpu_dialect::dialect, false,
                                             kDLCUDA, nvrtc_debug,           nvidia_warp_size,
                                             "sm_80", nvrtc_rounding};
constexpr const BackendTraits& hip_traits =
    KILN_HIP_NVIDIA != 0 ? hip_on_nvidia_traits : hip_on_amd_traits;
constexpr BackendTraits host_traits{"host",     &host_dialect::dialect, true,     kDLCPU,
                                    host_debug, host_warp_size,         "native", clang_rounding};

}  // namespace

// No default: a BackendKind without a row is a compiler warning here, not a silent fallback.
const BackendTraits& traits(BackendKind kind) {
    switch (kind) {
        case BackendKind::cuda:
            return cuda_traits;
        case BackendKind::hip:
            return hip_traits;
        case BackendKind::host:
            return host_traits;
    }
    throw Error("kiln: BackendKind value " + std::to_string(static_cast<int>(kind)) +
                " has no traits");
}

const KernelDialect& active_kernel_dialect() {
    try {
        return traits(backend().kind()).dialect();
    } catch (const NoDevice&) {
        return gpu_dialect::dialect();
    }
}

}  // namespace kiln::detail
