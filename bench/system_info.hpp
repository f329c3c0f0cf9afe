// What the results were measured on: the device, its driver, kiln's backend and compiler, the
// host compiler and Kokkos's execution space.
#pragma once

#include "json.hpp"

#include <cstddef>
#include <string>

namespace kiln::bench {

struct SystemInfo {
    // The device's name (the CPU's model on the host backend), or "cpu" without one
    std::string device = "cpu";
    std::string arch;
    int multiprocessors = 0;
    std::size_t memory_bytes = 0;
    std::string driver;   // the kernel driver's version, where the system reports it
    std::string backend;  // "cuda", "hip", "host", or "none"
    std::string
        compiler;  // the run-time compiler ("NVRTC 13.0", the host's C++ compiler), or "none"
    // The vendor libraries loaded at run time ("NVRTC /usr/local/cuda/lib64/libnvrtc.so.13"),
    // each "not found" where missing
    std::string libraries;
    std::string host_compiler;
    std::string kokkos_space;
    int kokkos_concurrency = 0;
    std::string kokkos_version;
    std::string date;  // YYYY-MM-DD, local time

    [[nodiscard]] Json json() const;
};

// Reads everything that is available; `device` says whether a device runs kernels, `host` whether
// that device is the host backend's CPU.
[[nodiscard]] SystemInfo system_info(bool device, bool host);

// The device name as a file-name part: "NVIDIA H200" -> "nvidia-h200".
[[nodiscard]] std::string file_name_part(const std::string& text);

}  // namespace kiln::bench
