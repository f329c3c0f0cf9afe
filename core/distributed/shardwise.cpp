#include "index_map.hpp"

#include <kiln/distributed/array_shardwise.hpp>
#include <kiln/error.hpp>

#include <string>
#include <utility>

namespace kiln::distributed::detail {

void require_same_partition(const std::vector<const DistributedArray*>& arrays,
                            const char* function) {
    const DistributedArray& first = *arrays.front();
    for (std::size_t i = 1; i < arrays.size(); ++i) {
        const DistributedArray& other = *arrays[i];
        const std::string which = "kiln: distributed." + std::string(function) +
                                  ": distributed operand " + std::to_string(i) + " ";
        if (other.shape() != first.shape()) {
            throw ValueError(which + "has shape " + to_string(other.shape()) +
                             " but operand 0 has shape " + to_string(first.shape()));
        }
        if (other.comms() != first.comms()) {
            throw ValueError(which + "lives on other communicators than operand 0");
        }
        if (other.index_map() != first.index_map()) {
            for (std::size_t s = 0; s < first.index_map().size(); ++s) {
                if (s >= other.index_map().size() || other.index_map()[s] != first.index_map()[s]) {
                    throw ValueError(which + "has another index map than operand 0: shard " +
                                     std::to_string(s) +
                                     " differs (redistribution is not done yet)");
                }
            }
            throw ValueError(which + "has " + std::to_string(other.index_map().size()) +
                             " shards but operand 0 has " +
                             std::to_string(first.index_map().size()));
        }
    }
}

ndarray probe_array(const DistributedArray& a) {
    const DeviceGuard guard(a.comms()->front().device());
    return kiln::zeros(Shape(a.shape().size(), 1), a.dtype());
}

DistributedArray from_shard_results(const DistributedArray& like, std::vector<ndarray> results,
                                    const std::function<ndarray()>& probe, const char* function) {
    std::vector<Shard> shards;
    for (std::size_t i = 0; i < results.size(); ++i) {
        ndarray& result = results[i];
        if (!result.c_contiguous()) {
            result = result.copy();
        }
        shards.push_back({like.local_shards()[i].index, std::move(result), {}});
    }
    const DType dtype = shards.empty() ? probe().dtype() : shards.front().array.dtype();
    return {like, dtype, std::move(shards), function};
}

}  // namespace kiln::distributed::detail
