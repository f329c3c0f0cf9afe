// Reductions of a distributed array along one axis. Along an axis no shard splits, each shard
// reduces on its own. Along a split axis the shards that cover the same box of the other axes
// form a group: each member reduces its block, the partial results travel to the group's first
// shard's rank (send and recv in one group, fetch_blocks), stacked in the order of the axis, and
// reduce once more there with kiln's own reduction, so NaN, ties and dtypes follow NumPy.
#include "block_moves.hpp"
#include "index_map.hpp"
#include "reduction_dtypes.hpp"

#include <kiln/distributed/array_reductions.hpp>
#include <kiln/distributed/array_shardwise.hpp>
#include <kiln/error.hpp>
#include <kiln/linalg.hpp>
#include <kiln/manipulation.hpp>
#include <kiln/reductions.hpp>
#include <kiln/ufuncs.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <utility>

namespace kiln::distributed {

namespace {

// A reduction of one block along an axis: (block, axis) -> the block's result.
using Along = std::function<ndarray(const ndarray&, int)>;
// The final reduction of a group's stacked partial results (along axis 0).
using Combine = std::function<ndarray(const ndarray&)>;

// The shards along a split axis over one box of the other axes, in the order of that axis.
struct ShardGroup {
    int owner = 0;                     // the rank of the group's first shard in index-map order
    std::vector<AxisRange> box;        // its ranges along the other axes
    std::vector<std::size_t> members;  // shards with elements along the axis, by their begin
};

std::vector<AxisRange> without(std::vector<AxisRange> ranges, std::size_t axis) {
    ranges.erase(ranges.begin() + static_cast<std::ptrdiff_t>(axis));
    return ranges;
}

bool overlaps(const std::vector<AxisRange>& a, const std::vector<AxisRange>& b) {
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::max(a[i].begin, b[i].begin) >= std::min(a[i].end, b[i].end)) {
            return false;
        }
    }
    return true;
}

std::string where(const char* function) {
    return "kiln: distributed." + std::string(function) + ": argument 'axis' ";
}

std::size_t checked_axis(const DistributedArray& a, std::int64_t axis, const char* function) {
    const std::int64_t ndim = a.ndim();
    if (axis < -ndim || axis >= ndim) {
        throw IndexError(where(function) + std::to_string(axis) + " is out of bounds for shape " +
                         to_string(a.shape()));
    }
    return static_cast<std::size_t>(axis < 0 ? axis + ndim : axis);
}

bool is_split(const DistributedArray& a, std::size_t axis) {
    const AxisRange whole{0, a.shape()[axis]};
    return std::any_of(a.index_map().begin(), a.index_map().end(),
                       [&](const ShardIndex& shard) { return shard.ranges[axis] != whole; });
}

// The groups of shards along `axis`. ValueError when two boxes overlap without being equal: no
// partition of the result fits them (redistribute first).
std::vector<ShardGroup> groups_along(const DistributedArray& a, std::size_t axis,
                                     const char* function) {
    const IndexMap& map = a.index_map();
    std::vector<ShardGroup> groups;
    for (std::size_t s = 0; s < map.size(); ++s) {
        if (map[s].ranges[axis].end == map[s].ranges[axis].begin) {
            continue;  // nothing to reduce; the other members cover its box
        }
        std::vector<AxisRange> box = without(map[s].ranges, axis);
        auto same = std::find_if(groups.begin(), groups.end(),
                                 [&](const ShardGroup& g) { return g.box == box; });
        if (same != groups.end()) {
            same->members.push_back(s);
            continue;
        }
        for (const ShardGroup& group : groups) {
            if (overlaps(group.box, box)) {
                throw ValueError(where(function) + std::to_string(axis) + ": shard " +
                                 std::to_string(s) + " and shard " +
                                 std::to_string(group.members.front()) +
                                 " overlap along the other axes without covering the same "
                                 "ranges; redistribute to blocks that line up first");
            }
        }
        groups.push_back({map[s].rank, std::move(box), {s}});
    }
    for (ShardGroup& group : groups) {
        std::sort(group.members.begin(), group.members.end(), [&](std::size_t x, std::size_t y) {
            return map[x].ranges[axis].begin < map[y].ranges[axis].begin;
        });
    }
    return groups;
}

// `partial` of every member shard, each group's stacked along a new axis 0 in the group's order,
// on the owner's device, for the groups whose owner this process holds (by group). Every process
// builds the same array of partials (shape (deepest group, *result), slots past a group's members
// left unwritten on its owner) and fetches each group's slots to its owner.
std::map<std::size_t, ndarray> stacked_partials(const DistributedArray& a, std::size_t axis,
                                                const std::vector<ShardGroup>& groups,
                                                const Along& partial, const char* function) {
    std::map<std::size_t, const Shard*> local;
    for (const Shard& shard : a.local_shards()) {
        local.emplace(shard.index, &shard);
    }
    const auto along = static_cast<int>(axis);
    const DType dtype = partial(detail::probe_array(a), along).dtype();
    std::size_t depth = 1;
    for (const ShardGroup& group : groups) {
        depth = std::max(depth, group.members.size());
    }
    IndexMap map;
    std::vector<Shard> shards;
    std::vector<ShardIndex> targets;
    for (const ShardGroup& group : groups) {
        for (std::size_t j = 0; j < depth; ++j) {
            const bool member = j < group.members.size();
            ShardIndex slot{member ? a.index_map()[group.members[j]].rank : group.owner, {}};
            slot.ranges.push_back({static_cast<std::int64_t>(j), static_cast<std::int64_t>(j) + 1});
            slot.ranges.insert(slot.ranges.end(), group.box.begin(), group.box.end());
            if (const Communicator* comm = detail::local_rank(a.comms(), slot.rank)) {
                const DeviceGuard guard(comm->device());
                ndarray value =
                    member ? expand_dims(partial(local.at(group.members[j])->array, along), {0})
                           : kiln::empty(detail::shard_shape(slot), dtype);
                shards.push_back({map.size(), value.c_contiguous() ? value : value.copy(), {}});
            }
            map.push_back(std::move(slot));
        }
        ShardIndex target{group.owner, {{0, static_cast<std::int64_t>(group.members.size())}}};
        target.ranges.insert(target.ranges.end(), group.box.begin(), group.box.end());
        targets.push_back(std::move(target));
    }
    Shape shape = a.shape();
    shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(axis));
    shape.insert(shape.begin(), static_cast<std::int64_t>(depth));
    const DistributedArray stacked(std::move(shape), dtype, std::move(map), a.comms(),
                                   std::move(shards), function);
    return detail::fetch_blocks(stacked, targets);
}

// The result of a split reduction: one shard per group, on its owner, from `results` (by group).
DistributedArray from_groups(const DistributedArray& a, std::size_t axis,
                             const std::vector<ShardGroup>& groups,
                             std::map<std::size_t, ndarray> results, DType dtype,
                             const char* function) {
    IndexMap map;
    std::vector<Shard> shards;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (results.contains(g)) {
            ndarray& result = results.at(g);
            shards.push_back({g, result.c_contiguous() ? result : result.copy(), {}});
        }
        map.push_back({groups[g].owner, groups[g].box});
    }
    Shape shape = a.shape();
    shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(axis));
    return {std::move(shape), dtype, std::move(map), a.comms(), std::move(shards), function};
}

// `combine` of each group's stacked partials, on the owner's device.
std::map<std::size_t, ndarray> combined(std::map<std::size_t, ndarray> stacked,
                                        const Combine& combine) {
    for (auto& [group, value] : stacked) {
        const DeviceGuard guard(value.device());
        value = combine(value);
    }
    return stacked;
}

// `whole` of each shard along `axis`, which no shard splits: the result keeps the partition of
// the other axes.
DistributedArray reduce_unsplit(const DistributedArray& a, std::size_t axis, const Along& whole,
                                const char* function) {
    // Along an axis of extent 0 several shards may cover the same box of the other axes, each
    // with the reduction of nothing: the first of them keeps it.
    IndexMap map;
    std::map<std::size_t, std::size_t> kept;  // a's shard -> its place in the result's map
    for (std::size_t s = 0; s < a.index_map().size(); ++s) {
        ShardIndex shard{a.index_map()[s].rank, without(a.index_map()[s].ranges, axis)};
        const bool repeated = std::any_of(map.begin(), map.end(), [&](const ShardIndex& other) {
            return overlaps(other.ranges, shard.ranges);
        });
        if (!repeated) {
            kept.emplace(s, map.size());
            map.push_back(std::move(shard));
        }
    }
    Shape shape = a.shape();
    shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(axis));
    std::vector<Shard> shards;
    const auto along = static_cast<int>(axis);
    for (const Shard& shard : a.local_shards()) {
        if (const auto at = kept.find(shard.index); at != kept.end()) {
            const DeviceGuard guard(shard.array.device());
            ndarray result = whole(shard.array, along);
            shards.push_back({at->second, result.c_contiguous() ? result : result.copy(), {}});
        }
    }
    const DType dtype = whole(detail::probe_array(a), along).dtype();
    return {std::move(shape), dtype, std::move(map), a.comms(), std::move(shards), function};
}

// `whole` of each shard when `axis` is not split; else `partial` of each, and `combine` of each
// group's stacked partials.
DistributedArray reduce_along(const DistributedArray& a, std::int64_t axis, const Along& whole,
                              const Along& partial, const Combine& combine, const char* function) {
    const std::size_t at = checked_axis(a, axis, function);
    if (!is_split(a, at)) {
        return reduce_unsplit(a, at, whole, function);
    }
    const std::vector<ShardGroup> groups = groups_along(a, at, function);
    const DType dtype =
        combine(expand_dims(partial(detail::probe_array(a), static_cast<int>(at)), {0})).dtype();
    return from_groups(a, at, groups,
                       combined(stacked_partials(a, at, groups, partial, function), combine), dtype,
                       function);
}

// A reduction that `same` finishes: the partials of sum, prod, max, min reduce by themselves.
DistributedArray reduce_along(const DistributedArray& a, std::int64_t axis, const Along& same,
                              const char* function) {
    return reduce_along(
        a, axis, same, same, [&](const ndarray& stacked) { return same(stacked, 0); }, function);
}

// Each block's sum of `term(x)` in the accumulating dtype, summed over the groups, then `finish`
// of the total, cast to `result`.
DistributedArray summed_along(const DistributedArray& a, std::int64_t axis, const Along& whole,
                              const std::function<ndarray(const ndarray&, int)>& block_sum,
                              const std::function<ndarray(const ndarray&)>& finish,
                              const char* function) {
    return reduce_along(
        a, axis, whole, block_sum,
        [&](const ndarray& stacked) { return finish(kiln::sum(stacked, 0)); }, function);
}

double along_count(const DistributedArray& a, std::int64_t axis, const char* function) {
    return static_cast<double>(a.shape()[checked_axis(a, axis, function)]);
}

// The index along the axis (int64) of the value `best` picks in each lane, first occurrence.
DistributedArray arg_along(const DistributedArray& a, std::int64_t axis, const Along& best,
                           const Along& arg, const char* function) {
    const std::size_t at = checked_axis(a, axis, function);
    if (!is_split(a, at)) {
        return reduce_unsplit(a, at, arg, function);
    }
    const std::vector<ShardGroup> groups = groups_along(a, at, function);
    std::map<std::size_t, ndarray> values = stacked_partials(a, at, groups, best, function);
    // Each member's first index of its best value, shifted by where its block starts.
    std::map<const ndarray*, std::int64_t> begins;
    for (const Shard& shard : a.local_shards()) {
        begins.emplace(&shard.array, a.index_map()[shard.index].ranges[at].begin);
    }
    std::map<std::size_t, ndarray> indices = stacked_partials(
        a, at, groups,
        [&](const ndarray& x, int along) {
            const auto begin = begins.find(&x);
            return kiln::add(arg(x, along), begin == begins.end() ? 0 : begin->second);
        },
        function);
    // The members are in the axis's order, so the first member holding the best value holds its
    // first occurrence: its index is the answer.
    for (auto& [group, index] : indices) {
        const DeviceGuard guard(index.device());
        const ndarray winner = arg(values.at(group), 0);
        ndarray chosen = index.slice(std::vector<Index>{0}).copy();
        for (std::int64_t j = 1; j < index.shape()[0]; ++j) {
            chosen =
                kiln::where(kiln::equal(winner, j), index.slice(std::vector<Index>{j}), chosen);
        }
        index = chosen;
    }
    return from_groups(a, at, groups, std::move(indices), int64, function);
}

}  // namespace

DistributedArray sum(const DistributedArray& a, std::int64_t axis) {
    return reduce_along(
        a, axis, [](const ndarray& x, int along) { return kiln::sum(x, along); }, "sum");
}

DistributedArray prod(const DistributedArray& a, std::int64_t axis) {
    return reduce_along(
        a, axis, [](const ndarray& x, int along) { return kiln::prod(x, along); }, "prod");
}

DistributedArray max(const DistributedArray& a, std::int64_t axis) {
    return reduce_along(
        a, axis, [](const ndarray& x, int along) { return kiln::max(x, along); }, "max");
}

DistributedArray min(const DistributedArray& a, std::int64_t axis) {
    return reduce_along(
        a, axis, [](const ndarray& x, int along) { return kiln::min(x, along); }, "min");
}

DistributedArray mean(const DistributedArray& a, std::int64_t axis) {
    const DType accumulate = detail::accumulate_dtype(a.dtype());
    const DType result = detail::mean_dtype(a.dtype());
    const double count = along_count(a, axis, "mean");
    return summed_along(
        a, axis, [](const ndarray& x, int along) { return kiln::mean(x, along); },
        [&](const ndarray& x, int along) {
            return kiln::sum(x, {.axis = along, .dtype = accumulate});
        },
        [&](const ndarray& total) { return kiln::true_divide(total, count).astype(result, false); },
        "mean");
}

DistributedArray var(const DistributedArray& a, std::int64_t axis, int ddof) {
    const std::size_t at = checked_axis(a, axis, "var");
    const Along whole = [&](const ndarray& x, int along) {
        return kiln::var(x, {.axis = along, .ddof = ddof});
    };
    if (!is_split(a, at)) {
        return reduce_unsplit(a, at, whole, "var");
    }
    // Two passes: the means along the axis (in the accumulating dtype), brought back to every
    // shard's rank, then the squared deviations from them.
    const DType accumulate = detail::accumulate_dtype(a.dtype());
    const double count = along_count(a, axis, "var");
    const DistributedArray means = summed_along(
        a, axis, whole,
        [&](const ndarray& x, int along) {
            return kiln::sum(x, {.axis = along, .dtype = accumulate});
        },
        [&](const ndarray& total) { return kiln::true_divide(total, count); }, "var");
    std::vector<ShardIndex> boxes;
    for (const ShardIndex& shard : a.index_map()) {
        boxes.push_back({shard.rank, without(shard.ranges, at)});
    }
    const std::map<std::size_t, ndarray> centers = detail::fetch_blocks(means, boxes);
    std::map<const ndarray*, ndarray> center_of;
    for (const Shard& shard : a.local_shards()) {
        center_of.emplace(&shard.array, centers.at(shard.index));
    }
    const bool half = a.dtype() == float16;
    return summed_along(
        a, axis, whole,
        [&](const ndarray& x, int along) {
            const auto center = center_of.find(&x);
            const ndarray deviation = center == center_of.end()  // the dtype probe
                                          ? x.astype(accumulate, false)
                                          : kiln::subtract(x.astype(accumulate, false),
                                                           expand_dims(center->second, {along}));
            return kiln::sum(kiln::square(kiln::absolute(deviation)), along);
        },
        [&](const ndarray& total) {
            const ndarray v = kiln::true_divide(total, count - ddof);
            return half ? v.astype(float16) : v;
        },
        "var");
}

DistributedArray std(const DistributedArray& a, std::int64_t axis, int ddof) {
    return shardwise([](const ndarray& v) { return kiln::sqrt(v); }, var(a, axis, ddof));
}

DistributedArray norm(const DistributedArray& a, std::int64_t axis) {
    const DType accumulate = detail::accumulate_dtype(a.dtype());
    const bool half = a.dtype() == float16;
    return summed_along(
        a, axis, [](const ndarray& x, int along) { return linalg::norm(x, {.axis = along}); },
        [&](const ndarray& x, int along) {
            return kiln::sum(kiln::square(kiln::absolute(x.astype(accumulate, false))), along);
        },
        [&](const ndarray& total) {
            const ndarray root = kiln::sqrt(total);
            return half ? root.astype(float16) : root;
        },
        "norm");
}

DistributedArray argmax(const DistributedArray& a, std::int64_t axis) {
    return arg_along(
        a, axis, [](const ndarray& x, int along) { return kiln::max(x, along); },
        [](const ndarray& x, int along) { return kiln::argmax(x, {.axis = along}); }, "argmax");
}

DistributedArray argmin(const DistributedArray& a, std::int64_t axis) {
    return arg_along(
        a, axis, [](const ndarray& x, int along) { return kiln::min(x, along); },
        [](const ndarray& x, int along) { return kiln::argmin(x, {.axis = along}); }, "argmin");
}

}  // namespace kiln::distributed
