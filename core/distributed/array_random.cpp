// kiln::distributed::random: each shard's elements, as slabs of the one-device draw. A block of a
// C-order array is contiguous along its trailing axes once they span the whole array; the next
// axis steps between such runs; each index of the axes before that starts one more slab.
#include "../random/arguments.hpp"
#include "../random/blocked.hpp"
#include "index_map.hpp"
#include "make_array.hpp"

#include <kiln/distributed/array_random.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace kiln::distributed::random {

namespace {

using kiln::detail::RandomSlab;
using FillShard = std::function<void(const ndarray&, const std::vector<RandomSlab>&)>;

// The slabs of `shard`'s block of an array of `shape`.
std::vector<RandomSlab> block_slabs(const Shape& shape, const ShardIndex& shard) {
    const std::size_t n = shape.size();
    std::vector<std::int64_t> strides(n, 1);  // the whole array's C-order strides, in elements
    for (std::size_t d = n; d-- > 1;) {
        strides[d - 1] = strides[d] * shape[d];
    }
    std::int64_t count = 1;
    for (const AxisRange& range : shard.ranges) {
        count *= range.end - range.begin;
    }
    if (count == 0) {
        return {};
    }
    // Axes [first_run_axis, n) make one contiguous run: all but the first span the array.
    std::size_t first_run_axis = n;
    std::int64_t run = 1;
    while (first_run_axis > 0) {
        --first_run_axis;
        run *= shard.ranges[first_run_axis].end - shard.ranges[first_run_axis].begin;
        if (shard.ranges[first_run_axis] != AxisRange{0, shape[first_run_axis]}) {
            break;
        }
    }
    // The axis before the run steps between runs inside a slab; the axes before it, if any,
    // each start new slabs.
    const std::size_t step_axis = first_run_axis > 0 ? first_run_axis - 1 : 0;
    const bool stepping = first_run_axis > 0;
    const std::int64_t runs =
        stepping ? shard.ranges[step_axis].end - shard.ranges[step_axis].begin : 1;
    const std::int64_t stride = stepping ? strides[step_axis] : run;
    std::int64_t base = 0;
    for (std::size_t d = 0; d < n; ++d) {
        base += shard.ranges[d].begin * strides[d];
    }
    std::vector<RandomSlab> slabs;
    std::vector<std::int64_t> outer(step_axis, 0);  // an index of the axes before step_axis
    for (std::int64_t first = 0; first < count; first += runs * run) {
        std::int64_t offset = base;
        for (std::size_t d = 0; d < outer.size(); ++d) {
            offset += outer[d] * strides[d];
        }
        slabs.push_back({first, runs * run, offset, run, stride});
        for (std::size_t d = outer.size(); d-- > 0;) {
            if (++outer[d] < shard.ranges[d].end - shard.ranges[d].begin) {
                break;
            }
            outer[d] = 0;
        }
    }
    return slabs;
}

DistributedArray draw(const Shape& shape, DType dtype, std::optional<IndexMap> index_map,
                      const Communicators& comms, const char* function, const FillShard& fill) {
    return detail::make_array(shape, dtype, std::move(index_map), comms, function,
                              [&](const ShardIndex& shard) {
                                  ndarray block = kiln::empty(detail::shard_shape(shard), dtype);
                                  fill(block, block_slabs(shape, shard));
                                  return block;
                              });
}

}  // namespace

// The arguments are checked before any shard is made, so that a process without shards throws
// as the others do.
DistributedArray uniform(const Shape& shape, const Communicators& comms, double low, double high,
                         std::uint64_t seed, DType dtype, std::optional<IndexMap> index_map) {
    const char* function = "distributed.random.uniform";
    kiln::detail::check_random_real_dtype(dtype, function);
    kiln::detail::check_uniform_range(low, high, function);
    return draw(shape, dtype, std::move(index_map), comms, "random.uniform",
                [&](const ndarray& out, const std::vector<RandomSlab>& slabs) {
                    kiln::detail::random_uniform_into(out, slabs, low, high, seed, function);
                });
}

DistributedArray normal(const Shape& shape, const Communicators& comms, double mean, double stddev,
                        std::uint64_t seed, DType dtype, std::optional<IndexMap> index_map) {
    const char* function = "distributed.random.normal";
    kiln::detail::check_random_real_dtype(dtype, function);
    kiln::detail::check_normal_parameters(mean, stddev, function);
    return draw(shape, dtype, std::move(index_map), comms, "random.normal",
                [&](const ndarray& out, const std::vector<RandomSlab>& slabs) {
                    kiln::detail::random_normal_into(out, slabs, mean, stddev, seed, function);
                });
}

DistributedArray integers(const Shape& shape, const Communicators& comms, std::int64_t low,
                          std::int64_t high, std::uint64_t seed, DType dtype,
                          std::optional<IndexMap> index_map) {
    const char* function = "distributed.random.integers";
    kiln::detail::check_random_integer_dtype(dtype, function);
    kiln::detail::check_integer_range(low, high, dtype, function);
    return draw(shape, dtype, std::move(index_map), comms, "random.integers",
                [&](const ndarray& out, const std::vector<RandomSlab>& slabs) {
                    kiln::detail::random_integers_into(out, slabs, low, high, seed, function);
                });
}

}  // namespace kiln::distributed::random
