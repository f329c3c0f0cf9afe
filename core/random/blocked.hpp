// kiln::random's draws written block by block into an existing array, so that a shard of a
// distributed array (kiln/distributed/array_random.hpp) holds exactly the elements of the
// one-device draw that its block covers, generated where they live.
#pragma once

#include <kiln/ndarray.hpp>

#include <cstdint>
#include <vector>

namespace kiln::detail {

// Elements [first, first + count) of an output: element first + i is element
// offset + (i / run) * stride + i % run of the whole draw (run > 0).
struct RandomSlab {
    std::int64_t first = 0;
    std::int64_t count = 0;
    std::int64_t offset = 0;
    std::int64_t run = 1;
    std::int64_t stride = 0;
};

// Fill `out` (C-contiguous, on the current device, written on its current stream) slab by slab
// with the values of kiln::random::uniform, normal or integers of the same arguments; the checks
// and errors are theirs, naming `function`.
void random_uniform_into(const ndarray& out, const std::vector<RandomSlab>& slabs, double low,
                         double high, std::uint64_t seed, const char* function);
void random_normal_into(const ndarray& out, const std::vector<RandomSlab>& slabs, double mean,
                        double stddev, std::uint64_t seed, const char* function);
void random_integers_into(const ndarray& out, const std::vector<RandomSlab>& slabs,
                          std::int64_t low, std::int64_t high, std::uint64_t seed,
                          const char* function);

}  // namespace kiln::detail
