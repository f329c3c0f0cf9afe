// What a test stamped out for one backend needs to know about it. The suites are compiled once;
// each backend's binary links its own backend_under_test.cpp, which names the backend.
#pragma once

#include <kiln/config.hpp>
#include <kiln/device.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::test {

// "cuda", "hip" or "host": the backend this binary selects before any test runs.
extern const std::string_view backend_name;

inline bool is_cuda() {
    return backend_name == "cuda";
}

inline bool is_hip() {
    return backend_name == "hip";
}

inline bool is_host() {
    return backend_name == "host";
}

// Whether the backend compiles with NVRTC for NVIDIA GPUs: the CUDA backend, and the HIP backend on
// HIP's NVIDIA platform (KILN_HIP_NVIDIA), whose dialect, targets and code objects are CUDA's.
// The HIP API's own limits (HIP 5.2's) still follow is_hip().
inline bool is_nvidia() {
    return is_cuda() || (is_hip() && KILN_HIP_NVIDIA != 0);
}

// Whether the backend compiles with HIPRTC for AMD GPUs.
inline bool is_amd() {
    return is_hip() && KILN_HIP_NVIDIA == 0;
}

// The targets CI compiles every kernel for, without a device.
inline std::vector<std::string> compile_targets() {
    if (is_nvidia()) {
        return {"sm_80", "sm_90"};
    }
    if (is_amd()) {
        return {"gfx90a", "gfx908", "gfx1030"};
    }
    ADD_FAILURE() << "no compile targets for backend " << backend_name;
    return {};
}

// Whether the large compile sweeps take every combination and every CI target
// (KILN_TEST_EXHAUSTIVE=1) or the sample that CI's two cores afford, which still gives every dtype
// and every loop class its own kernel.
inline bool exhaustive() {
    const char* value = std::getenv("KILN_TEST_EXHAUSTIVE");
    return value != nullptr && std::string_view(value) == "1";
}

// The targets of the large compile sweeps: one per warp size of each dialect, or every CI target
// when exhaustive. The generated source does not depend on the target beyond the warp size.
inline std::vector<std::string> sweep_targets() {
    if (exhaustive()) {
        return compile_targets();
    }
    if (is_nvidia()) {
        return {"sm_90"};
    }
    if (is_amd()) {
        return {"gfx90a", "gfx1030"};
    }
    return compile_targets();
}

// ELF e_machine of the code objects: EM_CUDA and EM_AMDGPU.
inline std::uint16_t elf_machine() {
    if (is_nvidia()) {
        return 190;
    }
    if (is_amd()) {
        return 224;
    }
    ADD_FAILURE() << "no code object format for backend " << backend_name;
    return 0;
}

}  // namespace kiln::test

// Skips the current test, saying why, when the backend under test sees no device.
#define KILN_REQUIRE_DEVICE()        \
    if (::kiln::device_count() == 0) \
    GTEST_SKIP() << "no " << ::kiln::test::backend_name << " device: " << ::kiln::no_device_reason()

// Skips a test, saying why, unless the backend shows two devices or more.
#define KILN_REQUIRE_TWO_DEVICES()  \
    KILN_REQUIRE_DEVICE();          \
    if (::kiln::device_count() < 2) \
    GTEST_SKIP() << "one " << ::kiln::test::backend_name << " device visible; needs two"

// Skips a test of what only the host backend does, on every other backend.
#define KILN_REQUIRE_HOST()                                                                   \
    KILN_REQUIRE_DEVICE();                                                                    \
    if (!::kiln::test::is_host())                                                             \
    GTEST_SKIP() << "host backend only; this binary tests the " << ::kiln::test::backend_name \
                 << " backend"

// Skips a test that cannot apply to the host backend, and only there; `why` completes "skipped on
// the host backend: ".
#define KILN_SKIP_ON_HOST(why)   \
    if (::kiln::test::is_host()) \
    GTEST_SKIP() << "skipped on the host backend: " << (why)

// Skips a test that cannot hold while ci/gpu-run.sh --sanitize runs it under a compute-sanitizer
// tool, and only then; `why` completes "skipped under compute-sanitizer: ".
#define KILN_SKIP_UNDER_SANITIZER(why)                                                         \
    if (const char* kiln_sanitizer = std::getenv("KILN_SANITIZER"); kiln_sanitizer != nullptr) \
    GTEST_SKIP() << "skipped under compute-sanitizer " << kiln_sanitizer << ": " << (why)

namespace kiln::test {

// The reasons tests give for KILN_SKIP_UNDER_SANITIZER.
inline constexpr const char* times_device_against_host =
    "the test times the device against the host, and the tool serializes and slows kernels";
inline constexpr const char* bounds_device_time =
    "the test bounds how long the device takes, and the tool serializes and slows the stream";
inline constexpr const char* death_test =
    "a death test re-executes the test binary, and that child hangs under the tool";

// A wall-time bound that shows a call gives up instead of hanging. compute-sanitizer's tools slow
// the vendor libraries' own work (NCCL's init and abort took 41 s against a 30 s bound under
// memcheck), so under them the bound is four times as long.
inline std::chrono::seconds hang_bound(std::chrono::seconds bound) {
    return std::getenv("KILN_SANITIZER") != nullptr ? 4 * bound
                                                    : bound;  // NOLINT(concurrency-mt-unsafe)
}

// The reasons tests give for KILN_SKIP_ON_HOST.
inline constexpr const char* four_gib =
    "moving and checking 4 GiB takes minutes on the CPU, too long for CI; the smaller sizes run";
inline constexpr const char* vendor_headers =
    "the GPU toolkit's headers (cooperative groups, CUB, cuda_fp16.h) have no host counterpart";
inline constexpr const char* wild_write =
    "a wild write in a host kernel is a segmentation fault of the process, not an asynchronous "
    "error; a host kernel's exception surfaces at synchronize instead (HostBackend tests)";

}  // namespace kiln::test
