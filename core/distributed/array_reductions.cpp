// Reductions of a distributed array: every shard reduces on its device; over every element the
// ranks' partial results then travel by one all_gather (a fixed number of slots per rank, since a
// rank may hold several shards or none) and reduce once more. When every rank is in this process,
// each device instead copies its partials into their slots on the first rank's device.
#include "../backend.hpp"
#include "../call_context.hpp"
#include "../routines/promotion.hpp"
#include "../routines/reduction_routine.hpp"
#include "../routines/reductions.hpp"
#include "index_map.hpp"
#include "reduction_dtypes.hpp"

#include <kiln/distributed/array_reductions.hpp>
#include <kiln/distributed/array_shardwise.hpp>
#include <kiln/distributed/group.hpp>
#include <kiln/error.hpp>
#include <kiln/event.hpp>
#include <kiln/fuse.hpp>
#include <kiln/manipulation.hpp>
#include <kiln/reductions.hpp>
#include <kiln/ufuncs.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <string_view>
#include <utility>

namespace kiln::distributed {

namespace {

using Reduce = std::function<ndarray(const ndarray&)>;

// A shard's reduction, written into `out` when one is given.
using ShardReduce = std::function<ndarray(const ndarray&, const std::optional<ndarray>& out)>;

// The dtype kiln's reduction `name` gives an array of `dtype`.
DType reduced_dtype(std::string_view name, DType dtype) {
    return kiln::detail::routine_dtypes(*kiln::detail::find_reduction(name), dtype).second;
}

// A local shard's partial result, and its rank.
struct Partial {
    int rank = 0;
    ndarray value;
};

// Whether a shard has elements, and so a partial result: max and argmax have none for an empty
// shard, and sum's would add nothing.
bool has_elements(const ShardIndex& shard) {
    return std::all_of(shard.ranges.begin(), shard.ranges.end(),
                       [](const AxisRange& range) { return range.end > range.begin; });
}

std::vector<std::int64_t> partials_per_rank(const DistributedArray& a) {
    std::vector<std::int64_t> counts(static_cast<std::size_t>(a.comms()->front().size()), 0);
    for (const ShardIndex& shard : a.index_map()) {
        counts[static_cast<std::size_t>(shard.rank)] += has_elements(shard) ? 1 : 0;
    }
    return counts;
}

// `reduce` of each local shard that has elements, on its device.
std::vector<Partial> local_partials(const DistributedArray& a,
                                    const std::function<ndarray(const Shard&)>& reduce) {
    std::vector<Partial> partials;
    for (const Shard& shard : a.local_shards()) {
        const ShardIndex& where = a.index_map()[shard.index];
        if (has_elements(where)) {
            const DeviceGuard guard(shard.array.device());
            partials.push_back({where.rank, reduce(shard)});
        }
    }
    return partials;
}

// Each local rank's partial results, `slots` of them (its own first, the rest zero), on its
// device.
std::vector<ndarray> rank_slots(const DistributedArray& a, const std::vector<Partial>& partials,
                                DType dtype, std::int64_t slots) {
    std::vector<ndarray> mine;
    for (const Communicator& comm : *a.comms()) {
        const auto own = std::find_if(partials.begin(), partials.end(),
                                      [&](const Partial& p) { return p.rank == comm.rank(); });
        if (slots == 1 && own != partials.end() && own->value.dtype() == dtype) {
            mine.push_back(own->value.reshape({1}));  // the one partial is the slot: no copy
            continue;
        }
        const DeviceGuard guard(comm.device());
        ndarray slot = kiln::zeros({slots}, dtype);
        std::int64_t next = 0;
        for (const Partial& partial : partials) {
            if (partial.rank == comm.rank()) {
                copyto(slot.slice(std::vector<Index>{next++}), partial.value);
            }
        }
        mine.push_back(std::move(slot));
    }
    return mine;
}

// Every rank's partial results (of `dtype`), in rank order, on the first rank's device, when every
// rank is in this process: one peer copy each. An NCCL group of non-blocking communicators would
// cost more on the host (it starts a thread per group) than the copies of a few bytes.
ndarray copy_partials(const DistributedArray& a, const std::vector<Partial>& partials,
                      DType dtype) {
    const std::vector<Communicator>& comms = *a.comms();
    const DeviceGuard guard(comms.front().device());
    ndarray gathered = kiln::empty({static_cast<std::int64_t>(partials.size())}, dtype);
    std::int64_t next = 0;
    for (const Communicator& comm : comms) {
        for (const Partial& partial : partials) {
            if (partial.rank == comm.rank()) {
                copyto(gathered.slice(std::vector<Index>{next++}), partial.value);
            }
        }
    }
    return gathered;
}

// Every rank's partial results (of `dtype`), in rank order, on the first local rank's device:
// one all_gather of a fixed number of slots per rank, then the slots in use.
ndarray gather_partials(const DistributedArray& a, const std::vector<Partial>& partials,
                        DType dtype) {
    const std::vector<Communicator>& comms = *a.comms();
    if (static_cast<int>(comms.size()) == comms.front().size()) {
        return copy_partials(a, partials, dtype);
    }
    const std::vector<std::int64_t> counts = partials_per_rank(a);
    const std::int64_t slots =
        std::max<std::int64_t>(1, *std::max_element(counts.begin(), counts.end()));
    const std::vector<ndarray> mine = rank_slots(a, partials, dtype, slots);
    std::vector<ndarray> gathered;
    Group group;
    for (std::size_t r = 0; r < comms.size(); ++r) {
        const DeviceGuard guard(comms[r].device());
        gathered.push_back(kiln::empty({slots * comms[r].size()}, dtype));
        comms[r].all_gather(mine[r], gathered.back());
    }
    // No wait here: what follows on the first rank's device runs after its all_gather in stream
    // order, and every rank's buffers go back to its pool on the stream that used them.
    group.end();
    if (std::all_of(counts.begin(), counts.end(),
                    [&](std::int64_t count) { return count == slots; })) {
        return gathered.front();  // every slot filled: nothing to compact
    }
    const DeviceGuard guard(comms.front().device());
    ndarray compact =
        kiln::empty({std::accumulate(counts.begin(), counts.end(), std::int64_t{0})}, dtype);
    std::int64_t next = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
        const auto first = static_cast<std::int64_t>(r) * slots;
        copyto(compact.slice(std::vector<Index>{Slice{next, next + counts[r]}}),
               gathered.front().slice(std::vector<Index>{Slice{first, first + counts[r]}}));
        next += counts[r];
    }
    return compact;
}

// Every shard's partial result (`reduce` of it, of `dtype`) in its slot of one array on the first
// rank's device, in rank order, when every rank is in this process. The slots are allocated
// first. The other devices' shards reduce first, then the first device's, straight into their
// slots; then each other device's stream copies its partials into their slots (device to device
// where the devices allow it) while the first device still reduces.
ndarray reduce_into_slots(const DistributedArray& a, DType dtype, const ShardReduce& reduce) {
    const std::vector<Communicator>& comms = *a.comms();
    const int first = comms.front().device();
    const std::vector<Shard>& shards = a.local_shards();
    std::vector<std::int64_t> slot(shards.size(), -1);
    std::int64_t slots = 0;
    for (const Communicator& comm : comms) {
        for (std::size_t i = 0; i < shards.size(); ++i) {
            const ShardIndex& where = a.index_map()[shards[i].index];
            if (where.rank == comm.rank() && has_elements(where)) {
                slot[i] = slots++;
            }
        }
    }
    kiln::detail::Backend& gpu = kiln::detail::backend();
    const StreamView first_stream = kiln::detail::current_stream_of(first);
    const Event allocated(Device(first), {.disable_timing = true});
    ndarray gathered = [&] {
        const DeviceGuard guard(Device{first});
        return kiln::empty({slots}, dtype);
    }();
    gpu.record_event(allocated.native(), first_stream);
    std::vector<std::pair<std::size_t, ndarray>> partials;  // each other device's, by shard
    for (std::size_t i = 0; i < shards.size(); ++i) {
        if (slot[i] >= 0 && shards[i].array.device() != first) {
            const DeviceGuard guard(Device{shards[i].array.device()});
            partials.emplace_back(i, reduce(shards[i].array, std::nullopt));
            // Checked before any copy is queued: a throw leaves no copy that nothing waits for.
            const ndarray& partial = partials.back().second;
            if (partial.dtype() != dtype || partial.size() != 1) {
                throw Error("kiln: distributed reduction: a shard's partial result is " +
                            std::string(name(partial.dtype())) + " of " +
                            std::to_string(partial.size()) + " elements, not one " +
                            std::string(name(dtype)) + " (internal error)");
            }
        }
    }
    for (std::size_t i = 0; i < shards.size(); ++i) {
        if (slot[i] >= 0 && shards[i].array.device() == first) {
            const DeviceGuard guard(Device{first});
            (void)reduce(shards[i].array, gathered.slice(std::vector<Index>{slot[i]}));
        }
    }
    // Queued after every reduction, so that no device's reduction waits for these on the host.
    auto* const base = static_cast<std::byte*>(gathered.data());
    std::vector<Event> copied;
    for (const auto& [i, partial] : partials) {
        const int device = partial.device();
        const StreamView stream = kiln::detail::current_stream_of(device);
        (void)kiln::detail::reachable(device, first);
        gpu.stream_wait_event(stream, allocated.native());
        gpu.copy_async(base + slot[i] * static_cast<std::int64_t>(partial.itemsize()),
                       partial.data(), partial.nbytes(), stream);
        copied.emplace_back(Device(device), EventFlags{.disable_timing = true});
        gpu.record_event(copied.back().native(), stream);
    }
    for (const Event& event : copied) {
        gpu.stream_wait_event(first_stream, event.native());
    }
    return gathered;
}

// `reduce` of every shard (partial results of `dtype`), the partial results of every rank
// gathered, and `combine` of them on the device of the first local rank.
ndarray reduce_all(const DistributedArray& a, DType dtype, const ShardReduce& reduce,
                   const Reduce& combine) {
    const std::vector<Communicator>& comms = *a.comms();
    if (static_cast<int>(comms.size()) == comms.front().size()) {
        const ndarray gathered = reduce_into_slots(a, dtype, reduce);
        const DeviceGuard guard(Device{comms.front().device()});
        return combine(gathered);
    }
    const std::vector<Partial> partials =
        local_partials(a, [&](const Shard& shard) { return reduce(shard.array, std::nullopt); });
    return combine(gather_partials(a, partials, dtype));
}

// The flat index in the whole array of element `local` (a 0-d int64 array: the flat index in
// `shard`, C order), computed on local's device: no read on the host, so no shard waits for
// another's.
ndarray global_index(const Shape& shape, const ShardIndex& shard, const ndarray& local) {
    ndarray rest = local;
    std::optional<ndarray> index;
    std::int64_t stride = 1;
    for (std::size_t axis = shape.size(); axis-- > 0;) {
        const std::int64_t extent = shard.ranges[axis].end - shard.ranges[axis].begin;
        const ndarray within = axis == 0 ? rest : kiln::remainder(rest, extent);
        const ndarray term = (within + shard.ranges[axis].begin) * stride;
        index = index ? *index + term : term;
        if (axis > 0) {
            rest = kiln::floor_divide(rest, extent);
        }
        stride *= shape[axis];
    }
    return index.value_or(local);
}

// The flat index of the element that `best` (max or min) picks, with `arg` (argmax or argmin)
// on each shard: each shard's candidate and its index travel, and of the candidates equal to the
// best (or NaN, when it is) the smallest index wins, as NumPy's first occurrence.
ndarray arg_reduce(const DistributedArray& a, const Reduce& best, const Reduce& arg) {
    const std::vector<Partial> values =
        local_partials(a, [&](const Shard& shard) { return best(shard.array); });
    const std::vector<Partial> indices = local_partials(a, [&](const Shard& shard) {
        return global_index(a.shape(), a.index_map()[shard.index], arg(shard.array));
    });
    const DType dtype =
        values.empty() ? best(detail::probe_array(a)).dtype() : values.front().value.dtype();
    const ndarray candidates = gather_partials(a, values, dtype);
    const ndarray found_at = gather_partials(a, indices, int64);
    const DeviceGuard guard(a.comms()->front().device());
    const ndarray chosen =
        candidates.slice(std::vector<Index>{arg(candidates).item<std::int64_t>()});
    const ndarray tied =
        kiln::logical_or(kiln::equal(candidates, chosen),
                         kiln::logical_and(kiln::isnan(candidates), kiln::isnan(chosen)));
    return kiln::min(kiln::where(tied, found_at, std::numeric_limits<std::int64_t>::max()));
}

// sum(partials) / count, as one kernel: the division is the reduction's post-map.
ndarray divided_sum(const ndarray& partials, std::int64_t count) {
    static const auto sum_divided =
        kiln::fuse("distributed_divided_sum", [](auto x, auto n) { return kiln::sum(x) / n; });
    return sum_divided(partials, static_cast<double>(count));
}

}  // namespace

ndarray sum(const DistributedArray& a) {
    return reduce_all(
        a, reduced_dtype("sum", a.dtype()),
        [](const ndarray& x, const std::optional<ndarray>& out) {
            return kiln::sum(x, {.out = out});
        },
        [](const ndarray& x) { return kiln::sum(x); });
}

ndarray prod(const DistributedArray& a) {
    return reduce_all(
        a, reduced_dtype("prod", a.dtype()),
        [](const ndarray& x, const std::optional<ndarray>& out) {
            return kiln::prod(x, {.out = out});
        },
        [](const ndarray& x) { return kiln::prod(x); });
}

ndarray max(const DistributedArray& a) {
    return reduce_all(
        a, reduced_dtype("max", a.dtype()),
        [](const ndarray& x, const std::optional<ndarray>& out) {
            return kiln::max(x, {.out = out});
        },
        [](const ndarray& x) { return kiln::max(x); });
}

ndarray min(const DistributedArray& a) {
    return reduce_all(
        a, reduced_dtype("min", a.dtype()),
        [](const ndarray& x, const std::optional<ndarray>& out) {
            return kiln::min(x, {.out = out});
        },
        [](const ndarray& x) { return kiln::min(x); });
}

ndarray mean(const DistributedArray& a) {
    const DType dtype = detail::mean_dtype(a.dtype());
    return reduce_all(
        a, dtype,
        [&](const ndarray& x, const std::optional<ndarray>& out) {
            return kiln::sum(x, {.dtype = dtype, .out = out});
        },
        [&](const ndarray& x) { return divided_sum(x, a.size()); });
}

ndarray var(const DistributedArray& a, int ddof) {
    const ndarray center = mean(a);
    std::map<int, ndarray> centers;  // the mean, copied once to each shard's device
    const auto squared_deviation = [&](const ndarray& x, const std::optional<ndarray>& out) {
        auto [at, fresh] = centers.try_emplace(x.device());
        if (fresh) {
            at->second = center.to_device(Device(x.device()));
        }
        return kiln::sum(kiln::square(kiln::absolute(kiln::subtract(x, at->second))), {.out = out});
    };
    // The deviations' dtype: the mean's, real.
    const DType dtype = reduced_dtype("sum", kiln::detail::real_dtype(center.dtype()));
    return reduce_all(a, dtype, squared_deviation,
                      [&](const ndarray& x) { return divided_sum(x, a.size() - ddof); });
}

ndarray std(const DistributedArray& a, int ddof) {
    return kiln::sqrt(var(a, ddof));
}

ndarray argmax(const DistributedArray& a) {
    return arg_reduce(
        a, [](const ndarray& x) { return kiln::max(x); },
        [](const ndarray& x) { return kiln::argmax(x); });
}

ndarray argmin(const DistributedArray& a) {
    return arg_reduce(
        a, [](const ndarray& x) { return kiln::min(x); },
        [](const ndarray& x) { return kiln::argmin(x); });
}

ndarray norm(const DistributedArray& a) {
    // numpy.linalg.norm's dtypes: float64 for bool and integers, float16 summed in float32.
    const DType type = detail::accumulate_dtype(a.dtype());
    return reduce_all(
        a, reduced_dtype("sum", kiln::detail::real_dtype(type)),
        [&](const ndarray& x, const std::optional<ndarray>& out) {
            return kiln::sum(kiln::square(kiln::absolute(x.astype(type, false))), {.out = out});
        },
        [&](const ndarray& x) {
            static const auto root_of_sum = kiln::fuse(
                "distributed_root_of_sum", [](auto y) { return kiln::sqrt(kiln::sum(y)); });
            const ndarray root = root_of_sum(x);
            return a.dtype() == float16 ? root.astype(float16) : root;
        });
}

}  // namespace kiln::distributed
