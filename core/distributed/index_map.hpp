// The checks and arithmetic of an index map (kiln/distributed/array.hpp), shared by the
// distributed array's creation, gathering and reductions.
#pragma once

#include <kiln/distributed/array.hpp>

#include <vector>

namespace kiln::distributed::detail {

// split_index_map along axis 0; a 0-d array is one shard, on rank 0.
[[nodiscard]] IndexMap default_index_map(const Shape& shape, int ranks);

// The block's extents.
[[nodiscard]] Shape shard_shape(const ShardIndex& shard);

// Whether `shape` is the block's extents (shard_shape, without building it).
[[nodiscard]] bool has_shard_shape(const Shape& shape, const ShardIndex& shard);

// The block as indices of the whole array, for ndarray::slice.
[[nodiscard]] std::vector<Index> shard_slices(const ShardIndex& shard);

// ValueError naming `function` unless `comms` holds at least one rank, every rank of one size
// and none twice.
void check_communicators(const Communicators& comms, const char* function);

// ValueError naming `function` unless every shard lies inside `shape` on a rank of `ranks`, and
// the shards cover every element once.
void check_index_map(const IndexMap& map, const Shape& shape, int ranks, const char* function);

// The communicator of `rank` when this process holds it, else nullptr.
[[nodiscard]] const Communicator* local_rank(const Communicators& comms, int rank);

// Whether this process holds every rank, so that no shard needs a collective to move.
[[nodiscard]] bool holds_every_rank(const Communicators& comms);

}  // namespace kiln::distributed::detail
