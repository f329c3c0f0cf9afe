// Test entry point. A binary stamped out for one backend selects it before anything runs.
#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char** argv) {
#ifdef KILN_TEST_BACKEND
    setenv("KILN_BACKEND", KILN_TEST_BACKEND, 1);  // NOLINT(concurrency-mt-unsafe): before threads
#endif
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
