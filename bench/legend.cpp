#include "legend.hpp"

#include <array>
#include <cstdio>

namespace kiln::bench {

namespace {

std::string format(const char* pattern, double value) {
    std::array<char, 32> text{};
    (void)std::snprintf(text.data(), text.size(), pattern, value);
    return text.data();
}

}  // namespace

std::string time_heading(bool host) {
    return host ? "host ms" : "GPU ms";
}

std::string legend(const LegendFacts& facts) {
    const std::string time = time_heading(facts.host);
    std::string out;
    if (facts.device) {
        out += time + ": median time per call on " + facts.device_name + " (" + facts.backend +
               " backend), between events on the stream, after warm-up; host us/call: the "
               "time to queue one call\n";
    } else {
        out += time + ": nothing ran kiln's kernels, so only the Kokkos columns are filled\n";
    }
    if (facts.copy_gbps) {
        const std::string copy = format("%.1f", *facts.copy_gbps) + " GB/s";
        out += facts.host ? "%copy: GB/s as a share of the CPU's memcpy bandwidth measured at the "
                            "start of the run (" +
                                copy +
                                ", 1 GiB); over 100% happens where a workload's data stays in "
                                "the CPU's caches and the 1 GiB copy's cannot\n"
                          : "%copy: GB/s as a share of the device-to-device copy bandwidth "
                            "measured at the start of the run (" +
                                copy + "); a workload that only reads can pass 100%\n";
    }
    out += "Kokkos ms: the Kokkos CPU reference's median time; speedup: Kokkos ms / " + time + "\n";
    out += "check: kiln's result against the Kokkos reference: ok within " +
           format("%g", facts.float_tolerance) + " relative norm for float32 and complex64, " +
           format("%g", facts.double_tolerance) +
           " for float64 and complex128, integers exactly; FAIL beyond that; ERROR: did not "
           "run; skip: not run here, for the reason under the row; -: nothing to compare\n";
    out +=
        std::string("peak MiB: the memory pool's high-water mark during the workload (") +
        (facts.host ? "host memory, since the host backend's device is the CPU" : "device memory") +
        ")";
    if (facts.peak_resident_bytes) {
        out += "; this process peaked at " +
               format("%.1f", static_cast<double>(*facts.peak_resident_bytes) / (1 << 30)) +
               " GiB resident";
    }
    return out + "\n";
}

}  // namespace kiln::bench
