// Runs a program, as the host backend runs the C++ compiler: through posix_spawn, never system()
// or fork(), so that it is safe in MPI processes and in threaded ones.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kiln::detail::host {

struct ProcessResult {
    int exit_code = -1;  // -1 when it did not exit normally (a signal)
    std::string output;  // stdout and stderr together
};

// Runs argv[0] (looked up in PATH when it has no slash) with `argv`, its output captured through
// a file in `scratch`; waits for it. Throws Error when it cannot be started.
[[nodiscard]] ProcessResult run_process(const std::vector<std::string>& argv,
                                        const std::filesystem::path& scratch);

// Where `program` is: itself when it names a path, else the first PATH entry that holds it as an
// executable; empty when none does.
[[nodiscard]] std::string find_program(const std::string& program);

}  // namespace kiln::detail::host
