// Entry point of the multi-rank tests, run under `mpirun -np 2`: MPI starts first (with
// MPI_THREAD_MULTIPLE, which the host backend's collectives need), the binary's backend is
// selected before anything runs, and every rank runs every test.
#include <kiln/device.hpp>
#include <kiln/memory_pool.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>

int main(int argc, char** argv) {
    setenv("KILN_BACKEND", KILN_TEST_BACKEND, 1);  // NOLINT(concurrency-mt-unsafe): before threads
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    testing::InitGoogleTest(&argc, argv);
    const int failed = RUN_ALL_TESTS();
    if (kiln::device_count() > 0) {
        kiln::Device::current().synchronize();
        kiln::release_cached_memory();
    }
    MPI_Finalize();
    return failed;
}
