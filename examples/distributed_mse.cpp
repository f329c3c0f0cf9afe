// The mean squared error from CuPy's guide to custom kernels, mean((x - y)**2), on distributed
// arrays: x and y are cut into one block per MPI rank (DistributedArray), the difference and its
// square run shard by shard on each rank's device, and mean() reduces each shard and then combines
// the ranks' partial sums with one collective. Every rank checks the result against the same
// expression on one device over the whole arrays.
//
//   mpirun -np 2 ./distributed_mse [elements]    (KILN_BACKEND=host runs it on the CPU)
//
// On a GPU backend every rank needs a GPU of its own; on the host backend the ranks' collectives
// run over MPI, which must provide MPI_THREAD_MULTIPLE.
#include <kiln/distributed/mpi.hpp>
#include <kiln/kiln.hpp>

#include <mpi.h>

#include <cmath>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace {

namespace dist = kiln::distributed;

// The seed's data, the same on every rank: x uniform in [0, 100), y = x plus noise of variance 25.
void seed_data(std::size_t n, std::vector<double>& x, std::vector<double>& y) {
    std::mt19937_64 generator(7);
    std::uniform_real_distribution<double> uniform(0, 100);
    std::normal_distribution<double> noise(0, 5);
    x.resize(n);
    y.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = uniform(generator);
        y[i] = x[i] + noise(generator);
    }
}

// 0 when the distributed MSE matches one device's, on this rank.
int run(std::size_t n) {
    auto ranks = std::make_shared<std::vector<dist::Communicator>>();
    ranks->push_back(dist::from_mpi(MPI_COMM_WORLD));
    const dist::Communicators comms = ranks;
    std::vector<double> x;
    std::vector<double> y;
    seed_data(n, x, y);
    const kiln::Shape shape = {static_cast<std::int64_t>(n)};

    // Each rank keeps its block of rows (numpy.array_split's cut) on its device.
    const dist::DistributedArray a =
        dist::distributed_array(std::span<const double>(x), shape, comms);
    const dist::DistributedArray b =
        dist::distributed_array(std::span<const double>(y), shape, comms);
    const dist::DistributedArray difference = a - b;
    const double distributed = dist::mean(difference * difference).item<double>();

    const kiln::ndarray whole_x = kiln::array(x);
    const kiln::ndarray whole_y = kiln::array(y);
    const double one_device = kiln::mean(kiln::square(whole_x - whole_y)).item<double>();
    const double relative = std::abs(distributed - one_device) / one_device;
    // Summing in another order moves the last bits only; the noise variance is 25.
    const bool ok = relative <= 1e-12 && std::abs(one_device - 25.0) < 0.5;
    if (comms->front().rank() == 0) {
        std::cout << "backend " << kiln::to_string(kiln::active_backend()) << ", "
                  << comms->front().size() << " rank(s), " << n << " elements\n"
                  << "distributed MSE " << distributed << ", one device's MSE " << one_device
                  << ", relative difference " << relative << '\n'
                  << (ok ? "ok" : "MISMATCH") << '\n';
    }
    return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    const std::size_t n = argc > 1 ? std::stoull(argv[1]) : 1'000'000;
    int status = 1;
    try {
        status = run(n);
    } catch (const std::exception& e) {
        // The other ranks may be waiting in a collective: end them all.
        std::cerr << "distributed_mse: " << e.what() << '\n';
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
