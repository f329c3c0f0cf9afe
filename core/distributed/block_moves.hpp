// Blocks of a distributed array brought to the ranks that need them, with the communicators' send
// and recv: what redistribution and the 2-D block product share.
#pragma once

#include <kiln/distributed/array.hpp>

#include <cstddef>
#include <map>
#include <vector>

namespace kiln::distributed::detail {

// Each of `targets` (a rank and a box of a's global indices; boxes may overlap and repeat) as a
// new C-contiguous array on its rank's device, for the targets whose rank this process holds,
// keyed by their position in `targets`. Every piece where a shard of `a` meets a target moves
// once: a device copy on one rank, else packed, sent and received, every transfer in one group.
// Collective: every process passes the same targets. Returns once the transfers are done.
[[nodiscard]] std::map<std::size_t, ndarray> fetch_blocks(const DistributedArray& a,
                                                          const std::vector<ShardIndex>& targets);

}  // namespace kiln::distributed::detail
