#include "host_blocks.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

namespace kiln::distributed::detail {

namespace {

// Calls copy(whole_offset, block_offset, bytes) for each row of the block (its last axis),
// offsets in bytes.
template <class Copy>
void for_each_row(const Shape& shape, std::size_t itemsize, const ShardIndex& shard, Copy copy) {
    const std::size_t ndim = shape.size();
    if (ndim == 0) {
        copy(std::size_t{0}, std::size_t{0}, itemsize);
        return;
    }
    const AxisRange& last = shard.ranges[ndim - 1];
    const auto row_bytes = static_cast<std::size_t>(last.end - last.begin) * itemsize;
    std::int64_t rows = 1;
    for (std::size_t axis = 0; axis + 1 < ndim; ++axis) {
        rows *= shard.ranges[axis].end - shard.ranges[axis].begin;
    }
    if (rows == 0 || row_bytes == 0) {
        return;
    }
    // The row's index within the block, one counter per leading axis.
    std::vector<std::int64_t> index(ndim - 1, 0);
    for (std::int64_t row = 0; row < rows; ++row) {
        std::int64_t offset = 0;
        for (std::size_t axis = 0; axis + 1 < ndim; ++axis) {
            offset = offset * shape[axis] + shard.ranges[axis].begin + index[axis];
        }
        offset = offset * shape[ndim - 1] + last.begin;
        copy(static_cast<std::size_t>(offset) * itemsize, static_cast<std::size_t>(row) * row_bytes,
             row_bytes);
        for (std::size_t axis = ndim - 1; axis-- > 0;) {
            if (++index[axis] < shard.ranges[axis].end - shard.ranges[axis].begin) {
                break;
            }
            index[axis] = 0;
        }
    }
}

}  // namespace

void cut_block(const std::byte* whole, const Shape& shape, std::size_t itemsize,
               const ShardIndex& shard, std::byte* block) {
    for_each_row(shape, itemsize, shard, [&](std::size_t from, std::size_t to, std::size_t bytes) {
        std::memcpy(block + to, whole + from, bytes);
    });
}

void place_block(const std::byte* block, const Shape& shape, std::size_t itemsize,
                 const ShardIndex& shard, std::byte* whole) {
    for_each_row(shape, itemsize, shard, [&](std::size_t to, std::size_t from, std::size_t bytes) {
        std::memcpy(whole + to, block + from, bytes);
    });
}

}  // namespace kiln::distributed::detail
