// kiln-bench's command line.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kiln::bench {

struct Options {
    std::string filter;       // --filter REGEX: only workloads whose name matches (search)
    int repeat = 20;          // --repeat N: timed GPU runs per workload, after warm-up
    int warmup = 3;           // --warmup N: untimed GPU runs first
    int cpu_repeat = 5;       // --cpu-repeat N: timed Kokkos runs, after one that checks
    double size_scale = 1.0;  // --size-scale F: multiplies every element count
    std::string json_path;    // --json PATH (a file, or a directory for the default name)
    bool list = false;        // --list: print the workloads and exit
    bool help = false;        // --help
    // --first-call-child CLASS NONCES: internal, the disk-cache half of the first-call workload.
    std::optional<std::string> child_class;
    std::vector<std::string> child_nonces;
};

// Parses argv (without the program name). Throws std::invalid_argument with a message naming
// the option and what was expected.
[[nodiscard]] Options parse_options(std::span<char* const> args);

[[nodiscard]] std::string usage();

}  // namespace kiln::bench
