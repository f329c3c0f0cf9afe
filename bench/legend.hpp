// The words that explain kiln-bench's table: the time column's heading and the legend under it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace kiln::bench {

// What the legend depends on.
struct LegendFacts {
    bool host = false;        // the host backend ran kiln's kernels, on the CPU
    bool device = false;      // some device (a GPU, or the CPU through the host backend) ran them
    std::string device_name;  // "NVIDIA H100 80GB HBM3", or the CPU's name
    std::string backend;      // "cuda", "hip", "host"
    std::optional<double> copy_gbps;  // the copy bandwidth measured at the start of the run
    double float_tolerance = 0;       // the check's relative-norm bounds
    double double_tolerance = 0;
    std::optional<std::size_t> peak_resident_bytes;  // the process's high-water mark
};

// "host ms" where the host backend times kiln's kernels, "GPU ms" where a GPU does.
[[nodiscard]] std::string time_heading(bool host);

// The legend, one line a column group, each ending in a newline.
[[nodiscard]] std::string legend(const LegendFacts& facts);

}  // namespace kiln::bench
