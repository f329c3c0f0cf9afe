// Runs a program and captures its standard output: the first-call workload measures the disk
// cache in a new process, which is the only way to have an empty memory cache.
#pragma once

#include <string>
#include <vector>

namespace kiln::bench {

// Runs `program` with `args` (the environment is inherited) and returns its standard output.
// Throws std::runtime_error when it cannot start or exits with a failure.
[[nodiscard]] std::string run_and_capture(const std::string& program,
                                          const std::vector<std::string>& args);

}  // namespace kiln::bench
