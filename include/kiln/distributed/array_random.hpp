/// @file
/// kiln::random on distributed arrays: for the same seed, the same numbers as kiln::random on one
/// device, whatever the partition. Element k of a draw depends on (seed, k) alone
/// (kiln/random.hpp), so each shard generates the elements of its own block where it lives,
/// without communication. The arguments and errors are kiln::random's, named after these
/// functions; `index_map` defaults to split_index_map(shape, ranks).
#pragma once

#include <kiln/distributed/array.hpp>

#include <cstdint>
#include <optional>

namespace kiln::distributed::random {

/// kiln::random::uniform, sharded.
[[nodiscard]] DistributedArray uniform(const Shape& shape, const Communicators& comms,
                                       double low = 0.0, double high = 1.0, std::uint64_t seed = 0,
                                       DType dtype = float64,
                                       std::optional<IndexMap> index_map = std::nullopt);
/// kiln::random::normal, sharded.
[[nodiscard]] DistributedArray normal(const Shape& shape, const Communicators& comms,
                                      double mean = 0.0, double stddev = 1.0,
                                      std::uint64_t seed = 0, DType dtype = float64,
                                      std::optional<IndexMap> index_map = std::nullopt);
/// kiln::random::integers, sharded.
[[nodiscard]] DistributedArray integers(const Shape& shape, const Communicators& comms,
                                        std::int64_t low, std::int64_t high, std::uint64_t seed = 0,
                                        DType dtype = int64,
                                        std::optional<IndexMap> index_map = std::nullopt);

}  // namespace kiln::distributed::random
