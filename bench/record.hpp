// One row of kiln-bench's results: what ran, on what inputs, and what it measured.
#pragma once

#include "json.hpp"

#include <kiln/dtype.hpp>
#include <kiln/shape.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace kiln::bench {

// A seeded input, as kiln::random draws it (and as bench/cupy_compare.py redraws it).
// Uniform draws start at 0 and normal draws have mean 0, so that the NumPy port reproduces
// random.hpp's fma without an fma: v = high * u and v = stddev * z are then rounded once.
struct InputSpec {
    std::string name;
    std::string distribution;  // "uniform" (low 0, high), "normal" (mean 0, stddev), "integers"
    double a = 0;              // high, stddev, or integers' low
    double b = 0;              // integers' high
    std::uint64_t seed = 0;
    DType dtype = float64;
    Shape shape;
    // "complex128": the float64 draw, two per element, read as complex numbers (the shape is the
    // complex array's; the draw has twice as many values).
    std::string view;
    std::vector<double> first;  // the first values, for a port to check itself against
};

// The result of comparing kiln's output with the Kokkos reference.
struct Check {
    std::string status = "-";  // "ok", "FAIL", or "-" when nothing was compared
    double error = std::numeric_limits<double>::quiet_NaN();  // relative norm, or mismatches
    double tolerance = std::numeric_limits<double>::quiet_NaN();
    std::string detail;
};

struct Record {
    std::string name;  // for the sizes that ran (--size-scale)
    std::string
        full_size_name;   // at scale 1, stable across sizes: bench/cupy_compare.py matches on it
    std::string skipped;  // why it did not run here; empty where it ran
    std::string description;
    std::string kernel_class;  // ElementwiseKernel, ReductionKernel, RawKernel, RawModule, ...
    std::string size;          // the shape as run, e.g. "8192x8192"
    std::string dtype;
    std::string bound;  // what should limit it: "memory", "compute", "launch", "host"
    std::string note;

    double bytes = 0;  // what the job must read and write at least (each input and output once)
    double flops = 0;  // floating-point operations, where that is the figure that matters

    std::optional<double> gpu_ms;      // median device time per call (events)
    std::optional<double> gpu_ms_min;  // fastest sample
    std::optional<double> host_us;     // median host time per call (enqueue only)
    int samples = 0;
    std::optional<double> kokkos_ms;  // median Kokkos time for the same job
    Check check;
    std::optional<std::size_t> peak_bytes;  // pool high-water mark during the workload

    std::vector<InputSpec> inputs;
    Json kernel;  // the kernel's definition: class and sources, as run
    Json params;  // workload parameters (scalars, axes, grid, calls) and extra figures
};

}  // namespace kiln::bench
