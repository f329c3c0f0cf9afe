// Putting a distributed array back together: on the host (get) or on one device (gather). This
// process's shards are read where they are; another process's arrive by one broadcast each, all
// in one group, since every rank must join every broadcast.
#include "host_blocks.hpp"
#include "index_map.hpp"
#include "shard_bytes.hpp"

#include <kiln/distributed/array.hpp>
#include <kiln/distributed/group.hpp>
#include <kiln/manipulation.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <vector>

namespace kiln::distributed {

namespace {

using Block = std::pair<std::size_t, ndarray>;

// The shards of other processes, each broadcast from its rank and kept on the device of the first
// local rank.
std::vector<Block> broadcast_remote_shards(const DistributedArray& a) {
    const std::vector<Communicator>& comms = *a.comms();
    std::map<std::size_t, ndarray> own;
    for (const Shard& shard : a.local_shards()) {
        own.emplace(shard.index, shard.array);
    }
    std::vector<Block> received;
    std::vector<ndarray> buffers;  // every rank's buffer lives until its broadcast has run
    Group group;
    for (std::size_t s = 0; s < a.index_map().size(); ++s) {
        const ShardIndex& shard = a.index_map()[s];
        for (const Communicator& comm : comms) {
            ndarray buffer;
            if (comm.rank() == shard.rank) {
                buffer = own.at(s);
            } else {
                const DeviceGuard guard(comm.device());
                buffer = kiln::empty(detail::shard_shape(shard), a.dtype());
            }
            comm.broadcast(buffer, shard.rank);
            if (&comm == &comms.front() && !own.contains(s)) {
                received.emplace_back(s, buffer);
            }
            buffers.push_back(std::move(buffer));
        }
    }
    group.end();
    for (const Communicator& comm : comms) {
        comm.synchronize();
    }
    return received;
}

// Calls `use` with every shard of `a` and its index in the map.
void for_each_block(const DistributedArray& a,
                    const std::function<void(std::size_t, const ndarray&)>& use) {
    for (const Shard& shard : a.local_shards()) {
        use(shard.index, shard.array);
    }
    if (!detail::holds_every_rank(a.comms())) {
        for (const auto& [s, block] : broadcast_remote_shards(a)) {
            use(s, block);
        }
    }
}

}  // namespace

ndarray DistributedArray::gather(const Device& device) const {
    const DeviceGuard guard(device);
    ndarray out = kiln::empty(shape_, dtype_);
    for_each_block(*this, [&](std::size_t s, const ndarray& block) {
        copyto(out.slice(detail::shard_slices((*index_map_)[s])), block);
    });
    return out;
}

void DistributedArray::get_bytes(void* out) const {
    auto* whole = static_cast<std::byte*>(out);
    for_each_block(*this, [&](std::size_t s, const ndarray& block) {
        std::vector<std::uint8_t> bytes(block.nbytes());
        detail::byte_view(block).get<std::uint8_t>(bytes);
        detail::place_block(reinterpret_cast<const std::byte*>(bytes.data()), shape_,
                            itemsize(dtype_), (*index_map_)[s], whole);
    });
}

}  // namespace kiln::distributed
