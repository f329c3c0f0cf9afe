/// @file
/// A distributed array from data that one process alone holds (MPI's scatter, and the usual
/// start when rank 0 reads the input): the root rank's process passes the whole array, the others
/// pass nothing, and each rank receives its blocks by the communicators' send and recv. The
/// root's shape and dtype reach every process by one broadcast first, so a process that passes a
/// different shape or dtype gets a ValueError, not a hang. While the blocks leave, the root's
/// device holds the whole array once (a C-contiguous copy, unless the source is one already on
/// that device). Collective: every process calls it with the same root and index map.
#pragma once

#include <kiln/distributed/array.hpp>
#include <kiln/ndarray.hpp>

#include <cstddef>
#include <optional>
#include <span>

namespace kiln::distributed {

/// `source` (an ndarray of any layout on any device of the root's process, passed there only;
/// the others pass ndarray()) cut by `index_map` (default split_index_map along axis 0) and sent
/// to its ranks: its shape and dtype are the root's (the root's own ndarray() is the empty
/// float64 array it is). With every rank in this process each block goes straight to its device;
/// across processes the root's device holds the whole array while it sends. ValueError for a root
/// outside the communicator.
[[nodiscard]] DistributedArray scatter(const ndarray& source, int root, const Communicators& comms,
                                       std::optional<IndexMap> index_map = std::nullopt);

namespace detail {
/// Internal: scatter of `count` host elements of `dtype` at `values` (the root's; others' are
/// ignored), every process giving `shape`.
[[nodiscard]] DistributedArray scatter_from_host(const void* values, std::size_t count, DType dtype,
                                                 const Shape& shape, int root,
                                                 const Communicators& comms,
                                                 std::optional<IndexMap> index_map);
}  // namespace detail

/// `values` (the whole array in C order, on the root's process; the others pass an empty span)
/// cut into shards of `shape` and sent to their ranks (straight from the host where every rank is
/// in this process). Every process passes `shape` and T: a
/// process whose shape or element type differs from the root's gets a ValueError, and every
/// process one when the root's values do not hold shape's elements.
template <class T>
[[nodiscard]] DistributedArray scatter(std::span<const T> values, const Shape& shape, int root,
                                       const Communicators& comms,
                                       const std::optional<IndexMap>& index_map = std::nullopt) {
    return detail::scatter_from_host(values.data(), values.size(), dtype_of<T>, shape, root, comms,
                                     index_map);
}

}  // namespace kiln::distributed
