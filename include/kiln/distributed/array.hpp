/// @file
/// One array sharded across the ranks of a communicator (CuPy's
/// cupyx.distributed.array.DistributedArray): the devices of one process (Communicator::create_all)
/// and the MPI ranks of several (from_mpi), or both. Each rank holds its shards, blocks of the
/// array given by an index map, as ndarrays on its device; a process sees only the shards of its
/// own ranks. Creation, gathering and reductions across ranks run on the communicator's
/// collectives, and are collective: every process calls them in the same order with the same
/// arguments. Element-wise work is shard-wise (kiln/distributed/array_shardwise.hpp) and
/// reductions are in kiln/distributed/array_reductions.hpp.
#pragma once

#include <kiln/device.hpp>
#include <kiln/distributed/communicator.hpp>
#include <kiln/dtype.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/scalar.hpp>
#include <kiln/shape.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace kiln::distributed {

/// The ranks of one communicator that this process drives, shared by the arrays made on them:
/// one Communicator per local rank (create_all's result, or from_mpi's one), of the same
/// communicator.
using Communicators = std::shared_ptr<const std::vector<Communicator>>;

/// The half-open range [begin, end) of global indices that a shard covers along one axis.
struct AxisRange {
    std::int64_t begin = 0;  ///< the first index
    std::int64_t end = 0;    ///< one past the last index
    /// Member-wise equality.
    friend bool operator==(const AxisRange&, const AxisRange&) = default;
};

/// One block of an array: the rank that holds it and its range along every axis (CuPy's
/// index_map entry, a tuple of slices, with the rank in place of the device).
struct ShardIndex {
    int rank = 0;                   ///< the communicator rank holding the block
    std::vector<AxisRange> ranges;  ///< one per axis: where the block sits in the whole array
    /// Member-wise equality.
    friend bool operator==(const ShardIndex&, const ShardIndex&) = default;
};

/// How an array is cut into shards: every element in exactly one shard. A rank may hold any
/// number of shards, none included.
using IndexMap = std::vector<ShardIndex>;

/// Blocks along `axis` as numpy.array_split cuts them, block r on rank r: the first
/// extent % ranks blocks one element longer. ValueError for ranks < 1, IndexError for an axis
/// outside the shape.
[[nodiscard]] IndexMap split_index_map(const Shape& shape, int ranks, std::int64_t axis = 0);

/// 2-D blocks: rows cut at `row_bounds`, columns at `column_bounds` (each from 0 to the extent,
/// increasing), block (i, j) on rank ranks[i][j] (CuPy's make_2d_index_map, one rank a block).
/// ValueError naming the bound or the rank that does not fit.
[[nodiscard]] IndexMap make_2d_index_map(const Shape& shape,
                                         const std::vector<std::int64_t>& row_bounds,
                                         const std::vector<std::int64_t>& column_bounds,
                                         const std::vector<std::vector<int>>& ranks);

/// One shard this process holds: its entry in the index map and its elements.
struct Shard {
    std::size_t index = 0;  ///< its position in index_map(), which gives its rank and offsets
    ndarray array;          ///< its elements, C-contiguous on its rank's device
    /// With ghost cells (with_halo): `array` and halo() ghost rows on each side along axis 0,
    /// which `array` is a view into; otherwise empty.
    ndarray padded;
};

/// An array sharded across the ranks of a communicator (cupyx.distributed.array
/// .DistributedArray). Copies are handles that share the shards, as ndarray's do.
class DistributedArray {
public:
    /// The whole array's shape.
    [[nodiscard]] const Shape& shape() const noexcept { return shape_; }
    /// The elements' dtype, the same in every shard.
    [[nodiscard]] DType dtype() const noexcept { return dtype_; }
    /// The number of axes.
    [[nodiscard]] std::int64_t ndim() const noexcept {
        return static_cast<std::int64_t>(shape_.size());
    }
    /// The number of elements of the whole array.
    [[nodiscard]] std::int64_t size() const noexcept;
    /// Every shard of every rank, as the array was cut.
    [[nodiscard]] const IndexMap& index_map() const noexcept { return *index_map_; }
    /// The local ranks the array lives on.
    [[nodiscard]] const Communicators& comms() const noexcept { return comms_; }
    /// The shards of this process's ranks, in index-map order.
    [[nodiscard]] const std::vector<Shard>& local_shards() const noexcept { return shards_; }
    /// The ghost rows each shard carries on each side along axis 0 (with_halo), or 0.
    [[nodiscard]] std::int64_t halo() const noexcept { return halo_; }

    /// The whole array on the host in C order, on every process (collective). T must be the
    /// dtype's element type (TypeError otherwise).
    template <class T>
    [[nodiscard]] std::vector<T> get() const {
        require_element_type(dtype_of<T>, "get");
        if constexpr (std::is_same_v<T, bool>) {  // std::vector<bool> has no contiguous storage
            std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size()));
            get_bytes(bytes.data());
            return std::vector<bool>(bytes.begin(), bytes.end());
        } else {
            std::vector<T> out(static_cast<std::size_t>(size()));
            get_bytes(out.data());
            return out;
        }
    }
    /// The whole array as one C-contiguous ndarray on `device` of this process, on every process
    /// (collective): local shards are copied device to device, other processes' shards arrive
    /// by broadcast.
    [[nodiscard]] ndarray gather(const Device& device) const;

    /// Internal: an array of `shards` (this process's, in index-map order), checked against the
    /// map. `function` names the caller in errors; `halo` is the shards' ghost width.
    DistributedArray(Shape shape, DType dtype, IndexMap index_map, Communicators comms,
                     std::vector<Shard> shards, const char* function, std::int64_t halo = 0);
    /// Internal: an array of `shards` of `dtype`, cut as `like` is (its shape, map and ranks,
    /// shared), with no ghost cells.
    DistributedArray(const DistributedArray& like, DType dtype, std::vector<Shard> shards,
                     const char* function);

private:
    void require_element_type(DType type, const char* function) const;
    void get_bytes(void* out) const;
    void check_shards(const char* function) const;

    Shape shape_;
    DType dtype_ = float64;
    std::shared_ptr<const IndexMap> index_map_;
    Communicators comms_;
    std::vector<Shard> shards_;
    std::int64_t halo_ = 0;
};

/// `values` (the whole array in C order, given on every process) cut into shards on their ranks
/// (cupyx.distributed.array.distributed_array from host data). `index_map` defaults to
/// split_index_map(shape, ranks). ShapeError when `values` does not hold shape's elements.
template <class T>
[[nodiscard]] DistributedArray distributed_array(std::span<const T> values, const Shape& shape,
                                                 const Communicators& comms,
                                                 const std::optional<IndexMap>& index_map = {});

/// `source` (an ndarray of this process, on any device) cut into shards, each copied to its
/// rank's device. Across processes every process passes its own copy of the whole array.
[[nodiscard]] DistributedArray distributed_array(const ndarray& source, const Communicators& comms,
                                                 std::optional<IndexMap> index_map = std::nullopt);

/// A sharded array whose elements are not initialized (cupy.empty).
[[nodiscard]] DistributedArray empty(const Shape& shape, const Communicators& comms,
                                     DType dtype = float64,
                                     std::optional<IndexMap> index_map = std::nullopt);
/// A sharded array of zeros (cupy.zeros).
[[nodiscard]] DistributedArray zeros(const Shape& shape, const Communicators& comms,
                                     DType dtype = float64,
                                     std::optional<IndexMap> index_map = std::nullopt);
/// A sharded array of ones (cupy.ones).
[[nodiscard]] DistributedArray ones(const Shape& shape, const Communicators& comms,
                                    DType dtype = float64,
                                    std::optional<IndexMap> index_map = std::nullopt);
/// A sharded array filled with `value`, of `dtype` or else the value's own (cupy.full).
[[nodiscard]] DistributedArray full(const Shape& shape, const Scalar& value,
                                    const Communicators& comms,
                                    std::optional<DType> dtype = std::nullopt,
                                    std::optional<IndexMap> index_map = std::nullopt);

namespace detail {
/// Internal: distributed_array from `count` host elements of `dtype` at `values`.
[[nodiscard]] DistributedArray distributed_from_host(const void* values, std::size_t count,
                                                     DType dtype, const Shape& shape,
                                                     const Communicators& comms,
                                                     const std::optional<IndexMap>& index_map);
}  // namespace detail

template <class T>
DistributedArray distributed_array(std::span<const T> values, const Shape& shape,
                                   const Communicators& comms,
                                   const std::optional<IndexMap>& index_map) {
    return detail::distributed_from_host(values.data(), values.size(), dtype_of<T>, shape, comms,
                                         index_map);
}

}  // namespace kiln::distributed
