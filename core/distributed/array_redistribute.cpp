// Redistribution: the new map's shards fetched from the old ones (block_moves).
#include "block_moves.hpp"
#include "index_map.hpp"

#include <kiln/distributed/array_redistribute.hpp>

#include <cstddef>
#include <map>
#include <utility>
#include <vector>

namespace kiln::distributed {

DistributedArray redistribute(const DistributedArray& a, IndexMap index_map) {
    detail::check_index_map(index_map, a.shape(), a.comms()->front().size(), "redistribute");
    std::map<std::size_t, ndarray> blocks = detail::fetch_blocks(a, index_map);
    std::vector<Shard> shards;
    shards.reserve(blocks.size());
    for (auto& [t, array] : blocks) {
        shards.push_back({t, std::move(array), {}});
    }
    return {a.shape(), a.dtype(),         std::move(index_map),
            a.comms(), std::move(shards), "redistribute"};
}

}  // namespace kiln::distributed
