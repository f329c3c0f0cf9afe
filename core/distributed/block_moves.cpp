// Every process walks the pairs (shard of a, target) in the same order, so the sends and receives
// between two ranks pair up in that order on both sides. Pieces are packed into contiguous buffers
// before the group opens and unpacked after the transfers have finished.
#include "block_moves.hpp"

#include "index_map.hpp"

#include <kiln/distributed/group.hpp>
#include <kiln/manipulation.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

namespace kiln::distributed::detail {

namespace {

// Where two blocks meet, or nothing when they hold no element in common.
std::optional<std::vector<AxisRange>> intersection(const ShardIndex& a, const ShardIndex& b) {
    std::vector<AxisRange> box;
    for (std::size_t axis = 0; axis < a.ranges.size(); ++axis) {
        const AxisRange range{std::max(a.ranges[axis].begin, b.ranges[axis].begin),
                              std::min(a.ranges[axis].end, b.ranges[axis].end)};
        if (range.begin >= range.end) {
            return std::nullopt;
        }
        box.push_back(range);
    }
    return box;
}

// `box` (global indices) as a view of `array`, which holds `block`.
ndarray view(const ndarray& array, const ShardIndex& block, const std::vector<AxisRange>& box) {
    std::vector<Index> slices;
    for (std::size_t axis = 0; axis < box.size(); ++axis) {
        const std::int64_t origin = block.ranges[axis].begin;
        slices.emplace_back(Slice{box[axis].begin - origin, box[axis].end - origin});
    }
    return array.slice(slices);
}

// One piece on its way: from shard `from` of a to target `to`.
struct Transfer {
    std::size_t from = 0;
    std::size_t to = 0;
    std::vector<AxisRange> box;
    ndarray packed;    // the piece, contiguous, on the sender's device (when it is local)
    ndarray received;  // its buffer on the receiver's device (when that is local)
};

}  // namespace

std::map<std::size_t, ndarray> fetch_blocks(const DistributedArray& a,
                                            const std::vector<ShardIndex>& targets) {
    const Communicators& comms = a.comms();
    const IndexMap& map = a.index_map();
    std::map<std::size_t, ndarray> sources;
    for (const Shard& shard : a.local_shards()) {
        sources.emplace(shard.index, shard.array);
    }
    std::map<std::size_t, ndarray> out;
    for (std::size_t t = 0; t < targets.size(); ++t) {
        if (const Communicator* comm = local_rank(comms, targets[t].rank)) {
            const DeviceGuard guard{Device(comm->device())};
            out.emplace(t, kiln::empty(shard_shape(targets[t]), a.dtype()));
        }
    }
    std::vector<Transfer> transfers;
    for (std::size_t s = 0; s < map.size(); ++s) {
        for (std::size_t t = 0; t < targets.size(); ++t) {
            std::optional<std::vector<AxisRange>> box = intersection(map[s], targets[t]);
            const bool sends = sources.contains(s);
            const bool receives = out.contains(t);
            if (!box || (!sends && !receives)) {
                continue;
            }
            if (map[s].rank == targets[t].rank) {  // one rank: both blocks are local
                copyto(view(out.at(t), targets[t], *box), view(sources.at(s), map[s], *box));
                continue;
            }
            Transfer transfer{s, t, std::move(*box), {}, {}};
            const Shape piece = shard_shape({0, transfer.box});
            if (sends) {
                const DeviceGuard guard{Device(sources.at(s).device())};
                transfer.packed = kiln::empty(piece, a.dtype());
                copyto(transfer.packed, view(sources.at(s), map[s], transfer.box));
            }
            if (receives) {
                const DeviceGuard guard{Device(out.at(t).device())};
                transfer.received = kiln::empty(piece, a.dtype());
            }
            transfers.push_back(std::move(transfer));
        }
    }
    Group group;
    for (const Transfer& transfer : transfers) {
        const int from = map[transfer.from].rank;
        const int to = targets[transfer.to].rank;
        if (sources.contains(transfer.from)) {
            local_rank(comms, from)->send(transfer.packed, to);
        }
        if (out.contains(transfer.to)) {
            local_rank(comms, to)->recv(transfer.received, from);
        }
    }
    group.end();
    for (const Communicator& comm : *comms) {
        comm.synchronize();
    }
    for (const Transfer& transfer : transfers) {
        if (out.contains(transfer.to)) {
            const ndarray& target = out.at(transfer.to);
            const DeviceGuard guard{Device(target.device())};
            copyto(view(target, targets[transfer.to], transfer.box), transfer.received);
        }
    }
    return out;
}

}  // namespace kiln::distributed::detail
