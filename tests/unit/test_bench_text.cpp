// kiln-bench's row names at --size-scale and the legend under its table (issue 32: the
// benchmark's output explains itself). Expected names are worked out by hand from the rules in
// bench/scaling.hpp; the legend's facts come from the complaints.
#include "bench/legend.hpp"
#include "bench/scaling.hpp"

#include <gtest/gtest.h>

namespace {

using kiln::bench::count_text;
using kiln::bench::legend;
using kiln::bench::LegendFacts;
using kiln::bench::name_at_scale;
using kiln::bench::time_heading;

TEST(BenchNames, CountsAreWrittenWithAnExponentWhereTheyEndInZeros) {
    EXPECT_EQ(count_text(1'000'000), "1e6");
    EXPECT_EQ(count_text(250'000), "2.5e5");
    EXPECT_EQ(count_text(120), "1.2e2");
    EXPECT_EQ(count_text(37), "37");
    EXPECT_EQ(count_text(1), "1");
}

TEST(BenchNames, ScaleOneKeepsEveryName) {
    for (const char* name :
         {"mse_reduction_f64_1e8", "routine_sum_axis0_f32_16x1e7", "squared_diff_f32_8192x8192_row",
          "copy_d2d_f32_1GiB", "pool_allocate_free_512B", "launch_overhead_fused"}) {
        EXPECT_EQ(name_at_scale(name, 1.0), name);
    }
}

// The example: a row named mse_..._1e8 run at scale 0.01 is named for 1e6.
TEST(BenchNames, ACountScalesLinearly) {
    EXPECT_EQ(name_at_scale("mse_reduction_f64_1e8", 0.01), "mse_reduction_f64_1e6");
    EXPECT_EQ(name_at_scale("prime_factor_sum_i64_1e6", 0.0001), "prime_factor_sum_i64_1e2");
    EXPECT_EQ(name_at_scale("mse_2dev_f64_2e8", 0.5), "mse_2dev_f64_1e8");
    EXPECT_EQ(name_at_scale("clipped_relu_f64_1e7", 0.25), "clipped_relu_f64_2.5e6");
}

// Skewed shapes scale their long side only, as the workloads do; fixed extents and counts of
// kernels stay.
TEST(BenchNames, OnlyTheFirstCountOfAShapeScales) {
    EXPECT_EQ(name_at_scale("routine_sum_axis0_f32_1e7x16", 0.001), "routine_sum_axis0_f32_1e4x16");
    EXPECT_EQ(name_at_scale("sum_axis1_f32_16x1e7", 0.001), "sum_axis1_f32_16x1e4");
    EXPECT_EQ(name_at_scale("fuse_sum_of_products_f32_1e4x1e4", 0.01),
              "fuse_sum_of_products_f32_1e2x1e4");
    EXPECT_EQ(name_at_scale("overlap_two_streams_prime_1e5x2", 0.01),
              "overlap_two_streams_prime_1e3x2");
}

// Square and cubic shapes scale each side by scale^(1/d): 8192 * 0.01^(1/2) = 819.2,
// 4096 * 0.001^(1/3) = 409.6, 512 * 0.001^(1/3) = 51.2.
TEST(BenchNames, PlainSidesScaleByTheRootOfTheScale) {
    EXPECT_EQ(name_at_scale("squared_diff_f32_8192x8192_row", 0.01),
              "squared_diff_f32_819x819_row");
    EXPECT_EQ(name_at_scale("routine_matmul_f32_4096x4096x4096", 0.001),
              "routine_matmul_f32_410x410x410");
    EXPECT_EQ(name_at_scale("matmul_naive_f32_1024x1024x512", 0.001),
              "matmul_naive_f32_102x102x51");
}

TEST(BenchNames, BytesAndWordsStay) {
    EXPECT_EQ(name_at_scale("copy_d2d_f32_1GiB", 0.01), "copy_d2d_f32_1GiB");
    EXPECT_EQ(name_at_scale("pool_allocate_free_1MiB", 0.01), "pool_allocate_free_1MiB");
    EXPECT_EQ(name_at_scale("launch_overhead_elementwise", 0.01), "launch_overhead_elementwise");
    EXPECT_EQ(name_at_scale("softplus_f32_1e8", 1e-9), "softplus_f32_1");
}

TEST(BenchLegend, TheTimeColumnSaysWhatTimedIt) {
    EXPECT_EQ(time_heading(true), "host ms");
    EXPECT_EQ(time_heading(false), "GPU ms");
}

LegendFacts host_facts() {
    return {.host = true,
            .device = true,
            .device_name = "AMD EPYC 7B13",
            .backend = "host",
            .copy_gbps = 12.34,
            .float_tolerance = 1e-5,
            .double_tolerance = 1e-12,
            .peak_resident_bytes = std::size_t{3} << 29};
}

TEST(BenchLegend, OnTheHostItExplainsCopyShareOverOneHundredPercent) {
    const std::string text = legend(host_facts());
    EXPECT_NE(text.find("host ms: median time per call on AMD EPYC 7B13 (host backend)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("CPU's memcpy bandwidth measured at the start of the run (12.3 GB/s"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("over 100%"), std::string::npos) << text;
    EXPECT_NE(text.find("ok within 1e-05 relative norm for float32"), std::string::npos) << text;
    EXPECT_NE(text.find("1e-12 for float64"), std::string::npos) << text;
    EXPECT_NE(text.find("skip: not run here"), std::string::npos) << text;
    EXPECT_NE(text.find("host memory"), std::string::npos) << text;
    EXPECT_NE(text.find("peaked at 1.5 GiB resident"), std::string::npos) << text;
    EXPECT_EQ(text.back(), '\n');
}

TEST(BenchLegend, OnAGpuItNamesTheDeviceAndItsCopy) {
    LegendFacts facts = host_facts();
    facts.host = false;
    facts.device_name = "NVIDIA H200";
    facts.backend = "cuda";
    facts.copy_gbps = 4200.0;
    const std::string text = legend(facts);
    EXPECT_NE(text.find("GPU ms: median time per call on NVIDIA H200 (cuda backend)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("device-to-device copy bandwidth measured at the start of the run "
                        "(4200.0 GB/s)"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("CPU's memcpy"), std::string::npos) << text;
    EXPECT_NE(text.find("(device memory)"), std::string::npos) << text;
}

TEST(BenchLegend, WithoutADeviceItSaysOnlyKokkosRan) {
    LegendFacts facts = host_facts();
    facts.host = false;
    facts.device = false;
    facts.copy_gbps.reset();
    const std::string text = legend(facts);
    EXPECT_NE(text.find("GPU ms: nothing ran kiln's kernels"), std::string::npos) << text;
    EXPECT_EQ(text.find("%copy"), std::string::npos) << text;
}

}  // namespace
