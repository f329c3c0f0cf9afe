// Ghost rows along axis 0 and their exchange between neighbouring shards. Shard s's neighbours
// are shards s - 1 and s + 1 of the map, on other ranks; every rank posts, shard by shard in map
// order, the transfer to and from the shard before then the one after, so the sends and receives
// between two ranks pair up in the same order on both sides.
#include "index_map.hpp"

#include <kiln/distributed/array_halo.hpp>
#include <kiln/distributed/group.hpp>
#include <kiln/error.hpp>
#include <kiln/manipulation.hpp>

#include <string>
#include <utility>

namespace kiln::distributed {

namespace {

std::string in(const char* function) {
    return "kiln: distributed." + std::string(function) + ": ";
}

// ValueError unless `a` is cut along axis 0 alone, in map order, into shards of at least `width`
// rows, neighbours on different ranks.
void check_row_split(const DistributedArray& a, std::int64_t width) {
    const std::string where = in("with_halo");
    if (width < 1) {
        throw ValueError(where + "argument 'width' is " + std::to_string(width) +
                         " but must be at least 1");
    }
    if (a.ndim() < 1) {
        throw ValueError(where + "argument 'a' is 0-d, but ghost rows need an axis 0");
    }
    std::int64_t next_row = 0;
    for (std::size_t s = 0; s < a.index_map().size(); ++s) {
        const ShardIndex& shard = a.index_map()[s];
        const std::string which = where + "argument 'a': shard " + std::to_string(s) + " ";
        for (std::size_t axis = 1; axis < shard.ranges.size(); ++axis) {
            if (shard.ranges[axis] != AxisRange{0, a.shape()[axis]}) {
                throw ValueError(which + "splits axis " + std::to_string(axis) +
                                 ": ghost cells need a cut along axis 0 alone");
            }
        }
        if (shard.ranges[0].begin != next_row) {
            throw ValueError(which + "does not start where shard " + std::to_string(s - 1) +
                             " ends: the map must list the row blocks in order");
        }
        if (shard.ranges[0].end - shard.ranges[0].begin < width) {
            throw ValueError(which + "has " +
                             std::to_string(shard.ranges[0].end - shard.ranges[0].begin) +
                             " rows, fewer than argument 'width' (" + std::to_string(width) + ")");
        }
        if (s > 0 && a.index_map()[s - 1].rank == shard.rank) {
            throw ValueError(which + "and its neighbour above are both on rank " +
                             std::to_string(shard.rank) + ": neighbours must be on other ranks");
        }
        next_row = shard.ranges[0].end;
    }
}

// Rows [begin, end) of `padded`: a C-contiguous view.
ndarray rows(const ndarray& padded, std::int64_t begin, std::int64_t end) {
    return padded[{Slice{begin, end}}];
}

}  // namespace

DistributedArray with_halo(const DistributedArray& a, std::int64_t width) {
    check_row_split(a, width);
    std::vector<Shard> shards;
    for (const Shard& shard : a.local_shards()) {
        const DeviceGuard guard(shard.array.device());
        Shape shape = shard.array.shape();
        shape[0] += 2 * width;
        ndarray padded = kiln::zeros(shape, a.dtype());
        ndarray interior = rows(padded, width, width + shard.array.shape()[0]);
        copyto(interior, shard.array);
        shards.push_back({shard.index, std::move(interior), std::move(padded)});
    }
    return {a.shape(), a.dtype(), a.index_map(), a.comms(), std::move(shards), "with_halo", width};
}

void exchange_halos(const DistributedArray& a, const std::vector<StreamView>& streams) {
    const std::string where = in("exchange_halos");
    if (a.halo() < 1) {
        throw ValueError(where + "argument 'a' has no ghost rows (make it with with_halo)");
    }
    const std::vector<Shard>& shards = a.local_shards();
    if (!streams.empty() && streams.size() != shards.size()) {
        throw ValueError(where + "argument 'streams' holds " + std::to_string(streams.size()) +
                         " streams but the array has " + std::to_string(shards.size()) +
                         " local shards (give one per shard, or none)");
    }
    const IndexMap& map = a.index_map();
    const std::int64_t h = a.halo();
    Group group;
    for (std::size_t i = 0; i < shards.size(); ++i) {
        const std::size_t s = shards[i].index;
        const Communicator& comm = *detail::local_rank(a.comms(), map[s].rank);
        const std::optional<StreamView> stream =
            streams.empty() ? std::nullopt : std::optional<StreamView>(streams[i]);
        const ndarray& padded = shards[i].padded;
        const std::int64_t n = shards[i].array.shape()[0];
        if (s > 0) {
            comm.send(rows(padded, h, 2 * h), map[s - 1].rank, stream);
            comm.recv(rows(padded, 0, h), map[s - 1].rank, stream);
        }
        if (s + 1 < map.size()) {
            comm.send(rows(padded, n, n + h), map[s + 1].rank, stream);
            comm.recv(rows(padded, n + h, n + 2 * h), map[s + 1].rank, stream);
        }
    }
    group.end();
}

}  // namespace kiln::distributed
