// Links the installed kiln::mpi (built, not run: starting MPI needs a launcher). A rank's
// communicator over MPI_COMM_WORLD sums one element.
#include <kiln/distributed/mpi.hpp>
#include <kiln/kiln.hpp>

#include <mpi.h>

int main(int argc, char** argv) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    int status = 0;
    {
        const kiln::distributed::Communicator comm = kiln::distributed::from_mpi(MPI_COMM_WORLD);
        const kiln::ndarray one = kiln::ones({1}, kiln::float64);
        comm.all_reduce(one);
        comm.synchronize();
        status = one.get<double>()[0] == comm.size() ? 0 : 1;
    }
    MPI_Finalize();
    return status;
}
