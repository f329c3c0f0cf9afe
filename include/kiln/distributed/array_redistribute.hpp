/// @file
/// Redistribution: the same array cut by another index map. Every block where an old shard and a
/// new one meet moves once, from the old shard's rank to the new one's, with the communicator's
/// send and recv in one group (NCCL/RCCL on GPUs, shared memory or MPI on the host backend), or
/// by a copy on the device when both shards are on one rank. Nothing is gathered on one device.
#pragma once

#include <kiln/distributed/array.hpp>

namespace kiln::distributed {

/// `a`'s elements cut by `index_map` (any map of a's shape on a's communicator: row or column
/// blocks, uneven or 2-D ones), on the same ranks. Collective: every process calls it with the
/// same map. It returns once the transfers are done; the result has no ghost rows.
/// ValueError naming 'index_map' for a map that does not fit a's shape or communicator.
[[nodiscard]] DistributedArray redistribute(const DistributedArray& a, IndexMap index_map);

}  // namespace kiln::distributed
