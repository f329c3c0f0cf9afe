// Moving one shard's block between the whole array in host memory (C order) and the block's own
// C-ordered bytes: how host data is cut into shards and put back together.
#pragma once

#include <kiln/distributed/array.hpp>

#include <cstddef>

namespace kiln::distributed::detail {

// Copies `shard`'s elements out of `whole` (of `shape`) into `block`.
void cut_block(const std::byte* whole, const Shape& shape, std::size_t itemsize,
               const ShardIndex& shard, std::byte* block);

// Copies `block` into its place in `whole` (of `shape`).
void place_block(const std::byte* block, const Shape& shape, std::size_t itemsize,
                 const ShardIndex& shard, std::byte* whole);

}  // namespace kiln::distributed::detail
