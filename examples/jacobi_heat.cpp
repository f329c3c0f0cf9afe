// The 2-D heat equation, solved to steady state by Jacobi iterations of the 5-point stencil on a
// distributed array: each MPI rank holds a block of rows with one ghost row on each side
// (with_halo), and every iteration exchanges the ghost rows with the neighbouring ranks
// (exchange_halos) on a stream of its own while the rows that read no ghost are updated on the
// current stream; the two rows next to the ghosts follow once the exchange is done. The top edge
// is held at 100 degrees, the left one at 50 and the others at 0. Every rank checks the result
// against the same iterations on one device over the whole grid, which must agree exactly, and
// rank 0 prints the time per iteration of both: each is timed after one warm-up iteration on
// copies of the grid (kernels compiled, pools filled, the ranks' first exchange made).
//
//   mpirun -np 2 ./jacobi_heat [size] [iterations]    (KILN_BACKEND=host runs it on the CPU)
//
// On a GPU backend every rank needs a GPU of its own; on the host backend the ranks' collectives
// run over MPI, which must provide MPI_THREAD_MULTIPLE.
#include <kiln/distributed/mpi.hpp>
#include <kiln/kiln.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace dist = kiln::distributed;
using kiln::ndarray;
using kiln::Slice;

// Rows [first, last) of `to`, all columns but the first and last, set to the mean of their four
// neighbours in `from`, summed in one fixed order so that every device gives the same bits.
void sweep(const ndarray& from, const ndarray& to, std::int64_t first, std::int64_t last) {
    if (first >= last) {
        return;
    }
    const std::int64_t c = from.shape()[1];
    const Slice inner{1, c - 1};
    kiln::copyto(
        to[{Slice{first, last}, inner}],
        (((from[{Slice{first - 1, last - 1}, inner}] + from[{Slice{first + 1, last + 1}, inner}]) +
          from[{Slice{first, last}, Slice{0, c - 2}}]) +
         from[{Slice{first, last}, Slice{2, c}}]) *
            0.25);
}

// The starting grid: 100 along the top edge, 50 along the left one (so that heat crosses every
// rank's ghost rows from the first iteration), 0 elsewhere.
std::vector<double> initial_grid(std::int64_t n) {
    std::vector<double> grid(static_cast<std::size_t>(n * n), 0.0);
    for (std::int64_t r = 1; r < n; ++r) {
        grid[static_cast<std::size_t>(r * n)] = 50.0;
    }
    std::fill(grid.begin(), grid.begin() + n, 100.0);
    return grid;
}

// `iterations` Jacobi iterations of `u` (one ghost row a side, one shard on this rank), the
// exchange overlapping the update of the rows that read no ghost. Returns the seconds taken.
double solve_distributed(dist::DistributedArray& u, dist::DistributedArray& next, int iterations) {
    const std::int64_t n = u.shape()[0];
    const dist::AxisRange rows = u.index_map()[u.local_shards()[0].index].ranges[0];
    const std::int64_t count = rows.end - rows.begin;
    // Padded row r is global row rows.begin + r - 1; global rows 0 and n - 1 stay fixed.
    const std::int64_t first = std::max<std::int64_t>(rows.begin, 1) - rows.begin + 1;
    const std::int64_t last = std::min<std::int64_t>(rows.end, n - 1) - rows.begin + 1;
    const std::int64_t inner_first = std::clamp<std::int64_t>(2, first, last);
    const std::int64_t inner_last = std::clamp<std::int64_t>(count, inner_first, last);
    const kiln::DeviceGuard guard(u.local_shards()[0].array.device());
    const kiln::Stream halo_stream(true);
    kiln::Event updated;
    kiln::Event exchanged;
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i) {
        const ndarray& from = u.local_shards()[0].padded;
        const ndarray& to = next.local_shards()[0].padded;
        updated.record(kiln::current_stream());  // the exchange reads the last update's rows
        halo_stream.wait_event(updated);
        dist::exchange_halos(u, {halo_stream});
        sweep(from, to, inner_first, inner_last);  // meanwhile, the rows that read no ghost
        exchanged.record(halo_stream);
        kiln::wait_event(kiln::current_stream(), exchanged);
        sweep(from, to, first, inner_first);
        sweep(from, to, inner_last, last);
        std::swap(u, next);
    }
    kiln::synchronize(kiln::current_stream());
    MPI_Barrier(MPI_COMM_WORLD);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The same iterations on one device over the whole grid. Returns the seconds taken.
double solve_one_device(ndarray& u, int iterations) {
    ndarray next = u.copy();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i) {
        sweep(u, next, 1, u.shape()[0] - 1);
        std::swap(u, next);
    }
    kiln::synchronize(kiln::current_stream());
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// 0 when the distributed solution matches one device's, on this rank.
int run(std::int64_t n, int iterations) {
    auto ranks = std::make_shared<std::vector<dist::Communicator>>();
    ranks->push_back(dist::from_mpi(MPI_COMM_WORLD));
    const dist::Communicators comms = ranks;
    const std::vector<double> grid = initial_grid(n);
    const dist::DistributedArray start =
        dist::distributed_array(std::span<const double>(grid), {n, n}, comms);
    {
        dist::DistributedArray warm = dist::with_halo(start, 1);
        dist::DistributedArray warm_next = dist::with_halo(start, 1);
        (void)solve_distributed(warm, warm_next, 1);
        ndarray warm_whole = kiln::array(grid, kiln::Shape{n, n});
        (void)solve_one_device(warm_whole, 1);
    }
    dist::DistributedArray u = dist::with_halo(start, 1);
    dist::DistributedArray next = dist::with_halo(start, 1);  // keeps the fixed edges too
    const double distributed_s = solve_distributed(u, next, iterations);

    ndarray whole = kiln::array(grid, kiln::Shape{n, n});
    const double one_device_s = solve_one_device(whole, iterations);
    const std::vector<double> expected = whole.get<double>();
    const bool ok = u.get<double>() == expected;
    if (comms->front().rank() == 0) {
        const double centre = expected[static_cast<std::size_t>((n / 2) * n + n / 2)];
        std::cout << "backend " << kiln::to_string(kiln::active_backend()) << ", "
                  << comms->front().size() << " rank(s), " << n << "x" << n << " grid, "
                  << iterations << " iterations; centre temperature " << centre << '\n'
                  << "time per iteration: distributed " << 1e3 * distributed_s / iterations
                  << " ms (" << iterations / distributed_s << " iterations/s), one device "
                  << 1e3 * one_device_s / iterations << " ms (" << iterations / one_device_s
                  << " iterations/s)\n"
                  << (ok ? "ok: equal to one device's iterations" : "MISMATCH") << '\n';
    }
    return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    const std::int64_t n = argc > 1 ? std::stoll(argv[1]) : 256;
    const int iterations = argc > 2 ? std::stoi(argv[2]) : 100;
    int status = 1;
    try {
        status = run(n, iterations);
    } catch (const std::exception& e) {
        // The other ranks may be waiting in a collective: end them all.
        std::cerr << "jacobi_heat: " << e.what() << '\n';
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
