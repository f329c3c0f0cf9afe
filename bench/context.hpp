// What every workload gets: the options, whether a device runs kernels (a GPU, or the CPU through
// the host backend), and how to scale sizes; and what a workload is.
#pragma once

#include "options.hpp"
#include "record.hpp"
#include "scaling.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kiln::bench {

struct Context {
    Options options;
    bool gpu = false;   // a device runs the kernels: a GPU, or the CPU when `host` is set
    bool host = false;  // the host backend runs them, on `host_threads` threads
    int host_threads = 0;
    int devices = 0;        // devices the active backend shows
    bool compiler = false;  // a GPU backend with its vendor libraries, so kernels can be compiled
    std::string self;       // this executable, for the first-call child process

    // `n` elements scaled by --size-scale (at least one).
    [[nodiscard]] std::int64_t scaled(std::int64_t n) const {
        return scale_count(n, options.size_scale);
    }
    // One side of a `dims`-dimensional shape, so that the element count scales by --size-scale.
    [[nodiscard]] std::int64_t scaled_side(std::int64_t n, int dims) const {
        return scale_side(n, dims, options.size_scale);
    }
};

struct Workload {
    std::string name;
    std::string description;
    bool needs_gpu = false;       // nothing to do without a device (no Kokkos side)
    bool needs_compiler = false;  // needs a GPU backend's compiler, not a device
    std::function<Record(const Context&)> run;
    // Instead of run, for a workload that measures several rows together.
    std::function<std::vector<Record>(const Context&)> run_all;
    // Why the host backend skips it (null where it runs there): a GPU driver call, or block
    // barriers, which the host runs as fibers, far too slow at the benchmark's sizes.
    const char* not_on_host = nullptr;
    // Devices it needs at least; with fewer it is skipped, saying so.
    int devices = 1;
};

inline constexpr const char* uses_barriers =
    "block barriers, which the host backend runs as fibers: too slow at this size";

// `workload`, skipped on the host backend for `why`.
[[nodiscard]] inline Workload skipped_on_host(Workload workload, const char* why) {
    workload.not_on_host = why;
    return workload;
}

}  // namespace kiln::bench
