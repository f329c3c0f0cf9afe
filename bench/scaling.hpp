// How --size-scale changes a workload's sizes, shared by the workloads and by their row names so
// that a name says the size that ran.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kiln::bench {

// `n` elements scaled by `scale` (at least one).
[[nodiscard]] std::int64_t scale_count(std::int64_t n, double scale);

// One side of a `dims`-dimensional shape, so that the element count scales by `scale`.
[[nodiscard]] std::int64_t scale_side(std::int64_t n, int dims, double scale);

// "1e6", "2.5e5", "300": a count as row names write it.
[[nodiscard]] std::string count_text(std::int64_t n);

// A row's name at `scale`. Names write their sizes as `_`-separated parts: the first count in
// exponent form ("1e8", "1e7x16", "1e4x1e4") is the one that scales, and a part of two or more
// plain numbers ("8192x8192", "4096x4096x4096") scales each side. Other parts (bytes such as
// "1GiB", counts of calls) stay.
[[nodiscard]] std::string name_at_scale(std::string_view name, double scale);

}  // namespace kiln::bench
