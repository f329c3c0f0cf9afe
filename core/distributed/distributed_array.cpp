#include "host_blocks.hpp"
#include "index_map.hpp"
#include "make_array.hpp"
#include "shard_bytes.hpp"

#include <kiln/distributed/array.hpp>
#include <kiln/error.hpp>
#include <kiln/manipulation.hpp>

#include <cstdint>
#include <string>
#include <utility>

namespace kiln::distributed {

namespace detail {

DistributedArray make_array(const Shape& shape, DType dtype, std::optional<IndexMap> index_map,
                            const Communicators& comms, const char* function,
                            const MakeShard& make) {
    check_communicators(comms, function);
    IndexMap map =
        index_map ? std::move(*index_map) : default_index_map(shape, comms->front().size());
    check_index_map(map, shape, comms->front().size(), function);
    std::vector<Shard> shards;
    for (std::size_t s = 0; s < map.size(); ++s) {
        if (const Communicator* comm = local_rank(comms, map[s].rank)) {
            const DeviceGuard guard(comm->device());
            shards.push_back({s, make(map[s]), {}});
        }
    }
    return {shape, dtype, std::move(map), comms, std::move(shards), function};
}

}  // namespace detail

std::int64_t DistributedArray::size() const noexcept {
    std::int64_t n = 1;
    for (const std::int64_t extent : shape_) {
        n *= extent;
    }
    return n;
}

DistributedArray::DistributedArray(Shape shape, DType dtype, IndexMap index_map,
                                   Communicators comms, std::vector<Shard> shards,
                                   const char* function, std::int64_t halo)
    : shape_(std::move(shape)),
      dtype_(dtype),
      index_map_(std::make_shared<const IndexMap>(std::move(index_map))),
      comms_(std::move(comms)),
      shards_(std::move(shards)),
      halo_(halo) {
    detail::check_communicators(comms_, function);
    detail::check_index_map(*index_map_, shape_, comms_->front().size(), function);
    check_shards(function);
}

DistributedArray::DistributedArray(const DistributedArray& like, DType dtype,
                                   std::vector<Shard> shards, const char* function)
    : shape_(like.shape_),
      dtype_(dtype),
      index_map_(like.index_map_),
      comms_(like.comms_),
      shards_(std::move(shards)) {
    check_shards(function);
}

void DistributedArray::check_shards(const char* function) const {
    const IndexMap& map = *index_map_;
    const auto shard_error = [&](std::size_t s, const std::string& what) {
        return ValueError("kiln: distributed." + std::string(function) + ": shard " +
                          std::to_string(s) + " (rank " + std::to_string(map[s].rank) + ") " +
                          what);
    };
    std::size_t next = 0;
    for (std::size_t s = 0; s < map.size(); ++s) {
        const Communicator* comm = detail::local_rank(comms_, map[s].rank);
        if (comm == nullptr) {
            continue;
        }
        if (next >= shards_.size() || shards_[next].index != s) {
            throw shard_error(s, "is missing from the local shards");
        }
        const ndarray& array = shards_[next++].array;
        if (!detail::has_shard_shape(array.shape(), map[s]) || array.dtype() != dtype_) {
            throw shard_error(s, "has shape " + to_string(array.shape()) + " and dtype " +
                                     std::string(name(array.dtype())) + " but must have shape " +
                                     to_string(detail::shard_shape(map[s])) + " and dtype " +
                                     std::string(name(dtype_)));
        }
        if (array.device() != comm->device() || !array.c_contiguous()) {
            throw shard_error(s, "must be C-contiguous on device " +
                                     std::to_string(comm->device()) + " (its rank's)");
        }
    }
    if (next != shards_.size()) {
        throw ValueError("kiln: distributed." + std::string(function) + ": " +
                         std::to_string(shards_.size() - next) +
                         " shard(s) given for no local rank of the index map");
    }
}

void DistributedArray::require_element_type(DType type, const char* function) const {
    if (type != dtype_) {
        throw TypeError("kiln: DistributedArray." + std::string(function) + ": the array is " +
                        std::string(name(dtype_)) + ", not " + std::string(name(type)));
    }
}

DistributedArray distributed_array(const ndarray& source, const Communicators& comms,
                                   std::optional<IndexMap> index_map) {
    return detail::array_of_blocks(source, std::move(index_map), comms, "distributed_array");
}

DistributedArray empty(const Shape& shape, const Communicators& comms, DType dtype,
                       std::optional<IndexMap> index_map) {
    return detail::make_array(
        shape, dtype, std::move(index_map), comms, "empty",
        [&](const ShardIndex& s) { return kiln::empty(detail::shard_shape(s), dtype); });
}

DistributedArray zeros(const Shape& shape, const Communicators& comms, DType dtype,
                       std::optional<IndexMap> index_map) {
    return detail::make_array(
        shape, dtype, std::move(index_map), comms, "zeros",
        [&](const ShardIndex& s) { return kiln::zeros(detail::shard_shape(s), dtype); });
}

DistributedArray ones(const Shape& shape, const Communicators& comms, DType dtype,
                      std::optional<IndexMap> index_map) {
    return detail::make_array(
        shape, dtype, std::move(index_map), comms, "ones",
        [&](const ShardIndex& s) { return kiln::ones(detail::shard_shape(s), dtype); });
}

DistributedArray full(const Shape& shape, const Scalar& value, const Communicators& comms,
                      std::optional<DType> dtype, std::optional<IndexMap> index_map) {
    const DType type = dtype.value_or(value.dtype());
    return detail::make_array(
        shape, type, std::move(index_map), comms, "full",
        [&](const ShardIndex& s) { return kiln::full(detail::shard_shape(s), value, type); });
}

namespace detail {

DistributedArray array_of_blocks(const ndarray& source, std::optional<IndexMap> index_map,
                                 const Communicators& comms, const char* function) {
    return make_array(source.shape(), source.dtype(), std::move(index_map), comms, function,
                      [&](const ShardIndex& shard) {
                          ndarray block = kiln::empty(shard_shape(shard), source.dtype());
                          copyto(block, source.slice(shard_slices(shard)));
                          return block;
                      });
}

DistributedArray array_of_host_blocks(const std::byte* whole, DType dtype, const Shape& shape,
                                      std::optional<IndexMap> index_map, const Communicators& comms,
                                      const char* function) {
    return make_array(shape, dtype, std::move(index_map), comms, function,
                      [&](const ShardIndex& shard) {
                          ndarray block = kiln::empty(shard_shape(shard), dtype);
                          std::vector<std::uint8_t> bytes(block.nbytes());
                          cut_block(whole, shape, itemsize(dtype), shard,
                                    reinterpret_cast<std::byte*>(bytes.data()));
                          byte_view(block).set<std::uint8_t>(bytes);
                          return block;
                      });
}

DistributedArray distributed_from_host(const void* values, std::size_t count, DType dtype,
                                       const Shape& shape, const Communicators& comms,
                                       const std::optional<IndexMap>& index_map) {
    std::int64_t size = 1;
    for (const std::int64_t extent : shape) {
        size *= extent;
    }
    if (static_cast<std::int64_t>(count) != size) {
        throw ShapeError("kiln: distributed.distributed_array: argument 'values' holds " +
                         std::to_string(count) + " elements but shape " + to_string(shape) +
                         " has " + std::to_string(size));
    }
    return array_of_host_blocks(static_cast<const std::byte*>(values), dtype, shape, index_map,
                                comms, "distributed_array");
}

}  // namespace detail

}  // namespace kiln::distributed
