// The device side of kiln::random: one generated kernel per distribution and dtype, each computing
// element i of its output from (seed, i) alone, exactly as include/kiln/random.hpp defines.
#pragma once

#include "../codegen/kernel_dialect.hpp"

#include <kiln/dtype.hpp>

#include <cstdint>
#include <string>

namespace kiln::detail {

enum class RandomDistribution : std::uint8_t { uniform, normal, integers };

// Every source defines one kernel of this name:
//   uniform, normal:  (T* out, long long n, unsigned long long seed, double a, double b)
//     with (a, b) = (low, high - low) for uniform and (mean, stddev) for normal;
//   integers:         (T* out, long long n, unsigned long long seed, long long low,
//                      unsigned long long range)  with range = high - low.
// A blocked kernel (a block of a bigger draw, for kiln::distributed::random) takes three more
// arguments, (long long offset, long long run, long long stride): out[i] is element
// offset + (i / run) * stride + i % run of the draw.
inline constexpr const char* random_kernel_name = "kiln_random";

// The kernel's source for `dtype` (a floating dtype for uniform and normal, an integer dtype for
// integers; the caller has checked it), blocked or not. It loops with KILN_FOR_EACH_INDEX.
[[nodiscard]] std::string random_source(RandomDistribution distribution, DType dtype,
                                        const KernelDialect& dialect, bool blocked = false);

}  // namespace kiln::detail
