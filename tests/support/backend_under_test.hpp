// What a test stamped out for one backend (KILN_TEST_BACKEND) needs to know about it.
#pragma once

#include <kiln/device.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::test {

inline constexpr std::string_view backend_name = KILN_TEST_BACKEND;
inline constexpr bool is_cuda = backend_name == "cuda";

// The targets CI compiles every kernel for, without a device.
inline std::vector<std::string> compile_targets() {
    if (is_cuda) {
        return {"sm_80", "sm_90"};
    }
    return {"gfx90a", "gfx908", "gfx1030"};
}

// ELF e_machine of the code objects: EM_CUDA and EM_AMDGPU.
inline constexpr std::uint16_t elf_machine = is_cuda ? 190 : 224;

}  // namespace kiln::test

// Skips the current test, saying why, when the backend under test sees no device.
#define KILN_REQUIRE_DEVICE()        \
    if (::kiln::device_count() == 0) \
    GTEST_SKIP() << "no " << ::kiln::test::backend_name << " device: " << ::kiln::no_device_reason()

// Skips a test that times the device against the host (a kernel must still run when the host
// looks) while ci/gpu-run.sh --sanitize runs it under a compute-sanitizer tool, which serializes
// and slows kernels; only then.
#define KILN_SKIP_UNDER_SANITIZER()                                                            \
    if (const char* kiln_sanitizer = std::getenv("KILN_SANITIZER"); kiln_sanitizer != nullptr) \
    GTEST_SKIP()                                                                               \
        << "times the device against the host, which cannot hold under compute-sanitizer "     \
        << kiln_sanitizer
