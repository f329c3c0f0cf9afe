// What the host backend reports about the machine's CPU.
#pragma once

#include <string>

namespace kiln::detail::host {

// The CPU's model name ("AMD EPYC 7R13 Processor"), or "CPU" when /proc/cpuinfo does not say.
[[nodiscard]] const std::string& cpu_name();

// A digest of the CPU's model and instruction-set features: kernels are built with
// -march=native, so a binary built on one CPU may not run on another.
[[nodiscard]] const std::string& cpu_features_digest();

}  // namespace kiln::detail::host
