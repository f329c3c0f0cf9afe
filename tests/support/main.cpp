// Test entry point. A binary stamped out for one backend selects it before anything runs, and
// hands the pools' cached memory back at the end, so that a leak checker sees only real leaks.
#include <kiln/device.hpp>
#include <kiln/memory_pool.hpp>

#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char** argv) {
#ifdef KILN_TEST_BACKEND
    setenv("KILN_BACKEND", KILN_TEST_BACKEND, 1);  // NOLINT(concurrency-mt-unsafe): before threads
    // Two host devices (sharing the CPU), so that the multi-device tests run on every machine.
    setenv("KILN_HOST_DEVICES", "2", 0);  // NOLINT(concurrency-mt-unsafe): before threads
#endif
    testing::InitGoogleTest(&argc, argv);
    const int failed = RUN_ALL_TESTS();
    if (kiln::device_count() > 0) {
        kiln::Device::current().synchronize();
        kiln::release_cached_memory();
    }
    return failed;
}
