/// @file
/// Ghost cells for stencils on distributed arrays: with_halo gives each shard `width` extra rows
/// on each side along the split axis (axis 0), and exchange_halos fills them from the
/// neighbouring shards' edge rows with the communicator's send and recv, asynchronously on
/// streams, so that an update of the rows that read no ghost can run meanwhile.
///
///     auto u = with_halo(distributed_array(values, {rows, columns}, comms), 1);
///     exchange_halos(u);                 // ghost rows now hold the neighbours' edge rows
///     const ndarray& p = u.local_shards()[0].padded;   // rows -1 .. n of shard 0
#pragma once

#include <kiln/distributed/array.hpp>
#include <kiln/stream_view.hpp>

#include <cstdint>
#include <vector>

namespace kiln::distributed {

/// A copy of `a` whose shards carry `width` ghost rows on each side along axis 0 (Shard::padded),
/// zero until exchange_halos fills them; Shard::array is the interior, a view into the padded
/// array, so shard-wise routines see the shard as before. `a` must be cut along axis 0 alone, in
/// index-map order (split_index_map's cut), neighbouring shards on different ranks, and every
/// shard at least `width` rows long. ValueError naming the argument otherwise.
[[nodiscard]] DistributedArray with_halo(const DistributedArray& a, std::int64_t width);

/// Fills the ghost rows of `a` (made by with_halo) with the neighbouring shards' first or last
/// halo() rows, all sends and receives in one group. The rows beyond the whole array's first and
/// last are left as they are (the boundary condition is the caller's). Collective, and
/// asynchronous: it queues the transfers on `streams` (one per local shard, in local_shards()
/// order; the current stream of each shard's device when empty) and does not wait for them.
/// The transfers follow the work already queued on those streams; work on other streams that
/// writes the shards must be ordered before them by the caller (wait_event), and `a` must live
/// until they are done. ValueError for an array without ghost rows or a wrong number of streams.
void exchange_halos(const DistributedArray& a, const std::vector<StreamView>& streams = {});

}  // namespace kiln::distributed
