// Each backend's facts, against the vendors' documents.
#include "core/backend_traits.hpp"

#include <kiln/config.hpp>

#include <dlpack/dlpack.h>
#include <gtest/gtest.h>

#include <string_view>
#include <vector>

namespace {

using kiln::BackendKind;
using kiln::detail::traits;

// On HIP's NVIDIA platform the HIP backend compiles with NVRTC for NVIDIA GPUs.
constexpr bool hip_on_nvidia = KILN_HIP_NVIDIA != 0;
constexpr const char* amd_only = "AMD-only: this build's HIP backend runs on HIP's NVIDIA platform";

TEST(BackendTraits, NamesAreWhatKilnBackendTakes) {
    EXPECT_EQ(traits(BackendKind::cuda).name, "cuda");
    EXPECT_EQ(traits(BackendKind::hip).name, "hip");
}

// DLPack's device types for CUDA and ROCm memory (CUDA's under HIP's NVIDIA platform).
TEST(BackendTraits, DevicesAsDlpackNamesThem) {
    EXPECT_EQ(traits(BackendKind::cuda).dlpack_device_type, kDLCUDA);
    EXPECT_EQ(traits(BackendKind::hip).dlpack_device_type, hip_on_nvidia ? kDLCUDA : kDLROCM);
}

// NVRTC's -G (which implies -lineinfo) and HIPRTC's -g; NVRTC's under HIP's NVIDIA platform.
TEST(BackendTraits, DebugOptionsAreEachCompilersOwn) {
    const auto cuda = traits(BackendKind::cuda).debug_options;
    const auto hip = traits(BackendKind::hip).debug_options;
    EXPECT_EQ(std::vector<std::string_view>(cuda.begin(), cuda.end()),
              std::vector<std::string_view>{"-G"});
    EXPECT_EQ(std::vector<std::string_view>(hip.begin(), hip.end()),
              std::vector<std::string_view>{hip_on_nvidia ? "-G" : "-g"});
}

TEST(BackendTraits, NvidiaWarpsAre32ThreadsOnEveryTarget) {
    for (const char* target : {"sm_50", "sm_80", "sm_90", "sm_90a", "sm_100f", "compute_90"}) {
        EXPECT_EQ(traits(BackendKind::cuda).warp_size(target), 32) << target;
        if (hip_on_nvidia) {
            EXPECT_EQ(traits(BackendKind::hip).warp_size(target), 32) << target;
        }
    }
}

// AMD's processor list (LLVM's AMDGPU usage document): GCN and CDNA run 64-wide wavefronts,
// RDNA's HIP default is 32.
TEST(BackendTraits, AmdWarpSizeFollowsTheProcessorFamily) {
    if (hip_on_nvidia) {
        GTEST_SKIP() << amd_only;
    }
    for (const char* target :
         {"gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx90c", "gfx940", "gfx942", "gfx950",
          "gfx90a:sramecc+:xnack-", "gfx9-generic", "gfx9-4-generic"}) {
        EXPECT_EQ(traits(BackendKind::hip).warp_size(target), 64) << target;
    }
    for (const char* target :
         {"gfx1010", "gfx1030", "gfx1036", "gfx1100", "gfx1151", "gfx1201", "gfx1030:xnack-",
          "gfx10-3-generic", "gfx11-generic", "gfx12-generic"}) {
        EXPECT_EQ(traits(BackendKind::hip).warp_size(target), 32) << target;
    }
}

}  // namespace
