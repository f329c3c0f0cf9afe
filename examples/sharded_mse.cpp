// The mean squared error from CuPy's guide to custom kernels, over arrays sharded across MPI
// ranks: each rank reduces its own part with a ReductionKernel, and an all_reduce finishes the
// sum. Rank 0 checks the result against one ReductionKernel over the whole arrays, and prints
// how long the sharded reduction takes (so that runs on 1 and 2 ranks compare: ci/gpu-run.sh).
//
//   mpirun -np 2 ./sharded_mse [elements]    (KILN_BACKEND=host runs it on the CPU)
//
// On a GPU backend every rank needs a GPU of its own; on the host backend the ranks' collectives
// run over MPI, which must provide MPI_THREAD_MULTIPLE.
#include <kiln/distributed/mpi.hpp>
#include <kiln/kiln.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace {

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

// Untimed runs first, then timed ones whose median is printed.
constexpr int warmup_runs = 3;
constexpr int timed_runs = 20;

// Milliseconds `work` takes on the slowest rank, from a barrier.
double slowest_ms(const std::function<void()>& work) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    work();
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    MPI_Allreduce(MPI_IN_PLACE, &ms, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return ms;
}

// 0 when the sharded result matches one rank's over the whole arrays, on every rank.
int run(std::size_t n) {
    const kiln::distributed::Communicator comm = kiln::distributed::from_mpi(MPI_COMM_WORLD);
    std::vector<double> x;
    std::vector<double> y;
    seed_data(n, x, y);

    // This rank's part: elements [begin, end).
    const auto rank = static_cast<std::size_t>(comm.rank());
    const auto ranks = static_cast<std::size_t>(comm.size());
    const std::size_t begin = n * rank / ranks;
    const std::size_t end = n * (rank + 1) / ranks;
    const kiln::ReductionKernel squared_error_sum("T x, T y", "T z", "(x - y) * (x - y)", "a + b",
                                                  "z = a", "0", "squared_error_sum");
    const kiln::ndarray x_part =
        kiln::array(std::span<const double>(x).subspan(begin, end - begin));
    const kiln::ndarray y_part =
        kiln::array(std::span<const double>(y).subspan(begin, end - begin));
    // The sharded reduction, with its parts already on the device: what the timing measures.
    kiln::ndarray part;
    const auto sharded_sum = [&] {
        part = squared_error_sum({x_part, y_part});
        comm.all_reduce(part);
        comm.synchronize();
    };
    for (int i = 0; i < warmup_runs; ++i) {
        sharded_sum();
    }
    std::vector<double> ms;
    ms.reserve(timed_runs);
    for (int i = 0; i < timed_runs; ++i) {
        ms.push_back(slowest_ms(sharded_sum));
    }
    std::sort(ms.begin(), ms.end());
    const double median_ms = (ms[(ms.size() - 1) / 2] + ms[ms.size() / 2]) / 2;
    const double sharded = part.get<double>()[0] / static_cast<double>(n);

    int verdict = 0;
    if (comm.rank() == 0) {
        const kiln::ReductionKernel mse("T x, T y", "T z", "(x - y) * (x - y)", "a + b",
                                        "z = a / _in_ind.size()", "0", "mse");
        const double whole = mse({kiln::array(x), kiln::array(y)}).get<double>()[0];
        const double difference = std::abs(sharded - whole) / whole;
        std::cout << "backend " << kiln::to_string(kiln::active_backend()) << ", " << comm.size()
                  << " rank(s), " << n << " elements\n"
                  << "sharded MSE " << sharded << ", one rank's MSE " << whole
                  << ", relative difference " << difference << '\n'
                  << "time: " << median_ms << " ms, median of " << timed_runs << " runs after "
                  << warmup_runs
                  << " warm-up (reduction, all_reduce and synchronize, on the slowest rank)\n";
        // Summing in another order moves the last bits only; the noise variance is 25.
        verdict = difference <= 1e-12 && std::abs(whole - 25.0) < 0.5 ? 0 : 1;
        std::cout << (verdict == 0 ? "ok" : "MISMATCH") << '\n';
    }
    MPI_Bcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return verdict;
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
        std::cerr << "sharded_mse: " << e.what() << '\n';
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Finalize();
    return status;
}
