// The host backend's CUDA dialect without running kernels: the warp functions' arithmetic on
// hand-worked lanes, and what the source scan finds to export (kernels by qualified name, no
// templates or overloads; dynamic shared arrays by assembler name).
#include "backends/host/cuda_source.hpp"
#include "backends/host/warp_functions.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

namespace {

using kiln::detail::host::scan_cuda_source;
using kiln::detail::host::warp_results;
using kiln::detail::host::WarpKind;
using kiln::detail::host::WarpRequest;

std::array<WarpRequest, 32> lanes(WarpKind kind, int operand, int width = 32) {
    std::array<WarpRequest, 32> requests{};
    for (unsigned lane = 0; lane < 32; ++lane) {
        requests[lane] = {kind, 0xffffffffU, 100 + lane, operand, width};
    }
    return requests;
}

TEST(HostWarpFunctions, ShufflesStayInTheirSegment) {
    const auto up = warp_results(lanes(kiln_warp_shuffle_up, 2, 8), ~0U);
    EXPECT_EQ(up[0], 100U);  // below its segment: its own value
    EXPECT_EQ(up[9], 109U);
    EXPECT_EQ(up[10], 108U);
    const auto down = warp_results(lanes(kiln_warp_shuffle_down, 3, 16), ~0U);
    EXPECT_EQ(down[12], 115U);
    EXPECT_EQ(down[13], 113U);  // 13 + 3 leaves the first segment of 16
    const auto xor8 = warp_results(lanes(kiln_warp_shuffle_xor, 12, 8), ~0U);
    EXPECT_EQ(xor8[1], 101U);   // 1 ^ 12 = 13 lies in a later segment
    EXPECT_EQ(xor8[13], 101U);  // 13 ^ 12 = 1 lies in an earlier one: allowed
    const auto index = warp_results(lanes(kiln_warp_shuffle, 35, 4), ~0U);
    EXPECT_EQ(index[6], 107U);  // lane 3 of the segment 4..7
}

TEST(HostWarpFunctions, VotesAndReductionsCoverTheGroupOnly) {
    auto requests = lanes(kiln_warp_ballot, 0);
    for (unsigned lane = 0; lane < 32; ++lane) {
        requests[lane].value = lane % 5 == 0 ? 1 : 0;
    }
    EXPECT_EQ(warp_results(requests, 0xffffU)[0], 0x0421U | 0x8000U);
    for (auto& request : requests) {
        request.kind = kiln_warp_all;
    }
    EXPECT_EQ(warp_results(requests, 0x21U)[0], 1U);
    EXPECT_EQ(warp_results(requests, 0x23U)[0], 0U);
    auto sums = lanes(kiln_warp_reduce_min_signed, 0);
    sums[4].value = static_cast<unsigned>(-7);
    EXPECT_EQ(static_cast<int>(warp_results(sums, 0xffU)[1]), -7);
    EXPECT_EQ(warp_results(sums, 0xefU)[1], 100U);
}

TEST(HostCudaSource, ExportsNonTemplateKernelsByQualifiedName) {
    const auto scan = scan_cuda_source(R"src(
#define KERNEL __global__ void fake()
// __global__ void commented()
extern "C" __global__ void __launch_bounds__(256) plain(float* x) {
    const char* text = "__global__ void quoted()";
}
namespace outer { namespace inner {
extern "C" { __global__ void nested(int n); }
__global__ void nested(int n) { extern __shared__ float tile[]; }
} }
template <class T>
__global__ void generic(T* x) {}
__global__ void overloaded(int* x) {}
__global__ void overloaded(float* x) {}
struct S { void member() { __shared__ int local[4]; } };
__global__ void reduce(int* x) { extern __shared__ __align__(16) unsigned char raw[]; }
)src");
    EXPECT_EQ(scan.kernels, (std::vector<std::string>{"outer::inner::nested", "plain", "reduce"}));
    EXPECT_EQ(scan.dynamic_shared, (std::vector<std::string>{"_ZN5outer5inner4tileE", "raw"}));
}

}  // namespace
