// A distributed array built shard by shard, on its ranks' devices: what creation, random draws
// and products share.
#pragma once

#include <kiln/distributed/array.hpp>

#include <cstddef>
#include <functional>
#include <optional>

namespace kiln::distributed::detail {

// One local shard's elements, made with its rank's device current.
using MakeShard = std::function<ndarray(const ShardIndex&)>;

// The array whose local shards `make` returns; `index_map` defaults to the even split along
// axis 0 (one shard on rank 0 for a 0-d shape), and is checked naming `function`.
[[nodiscard]] DistributedArray make_array(const Shape& shape, DType dtype,
                                          std::optional<IndexMap> index_map,
                                          const Communicators& comms, const char* function,
                                          const MakeShard& make);

// `source` (an ndarray of this process) cut by `index_map`, each block copied from its device to
// its rank's device.
[[nodiscard]] DistributedArray array_of_blocks(const ndarray& source,
                                               std::optional<IndexMap> index_map,
                                               const Communicators& comms, const char* function);

// The C-ordered host elements `whole` of `shape` cut by `index_map`, each block copied from the
// host to its rank's device.
[[nodiscard]] DistributedArray array_of_host_blocks(const std::byte* whole, DType dtype,
                                                    const Shape& shape,
                                                    std::optional<IndexMap> index_map,
                                                    const Communicators& comms,
                                                    const char* function);

}  // namespace kiln::distributed::detail
