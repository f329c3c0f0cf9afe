// A distributed array from the root's data. The root's shape and dtype reach every process in a
// fixed-size header by one broadcast, and one all_reduce says whether any process disagrees, so
// that a bad argument anywhere is an error everywhere rather than a rank left waiting. Then the
// whole array, one shard on the root, is cut into the index map's blocks by fetch_blocks. When
// every rank is in this process, each block goes from the source straight to its device instead:
// no device holds the whole array.
#include "block_moves.hpp"
#include "index_map.hpp"
#include "make_array.hpp"
#include "shard_bytes.hpp"

#include <kiln/distributed/array_scatter.hpp>
#include <kiln/distributed/group.hpp>
#include <kiln/error.hpp>
#include <kiln/manipulation.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kiln::distributed {

namespace {

constexpr std::size_t header_axes = 64;  // NumPy's most

// What a process knows of the array: the root all of it, the others what they were given.
struct Description {
    std::string refused;  // why the root's input cannot be sent, or ""
    std::optional<Shape> shape;
    std::optional<DType> dtype;
};

// One value per local rank, on its device, passed through `collective` in one group; the first
// local rank's result.
std::vector<std::int64_t> exchange(
    const std::vector<std::int64_t>& values, const Communicators& comms,
    const std::function<void(const Communicator&, const ndarray&)>& collective) {
    std::vector<ndarray> buffers;
    Group group;
    for (const Communicator& comm : *comms) {
        const DeviceGuard guard(comm.device());
        buffers.push_back(kiln::array(values, Shape{static_cast<std::int64_t>(values.size())}));
        collective(comm, buffers.back());
    }
    group.end();
    for (const Communicator& comm : *comms) {
        comm.synchronize();
    }
    return buffers.front().get<std::int64_t>();
}

// The root's description, on every process: refused (header[0]), dtype, ndim, extents.
Description root_description(const Description& mine, int root, const Communicators& comms) {
    std::vector<std::int64_t> header(3 + header_axes, 0);
    if (detail::local_rank(comms, root) != nullptr) {
        header[0] = mine.refused.empty() ? 0 : 1;
        if (mine.refused.empty()) {
            header[1] = static_cast<std::int64_t>(*mine.dtype);
            header[2] = static_cast<std::int64_t>(mine.shape->size());
            std::copy(mine.shape->begin(), mine.shape->end(), header.begin() + 3);
        }
    }
    header = exchange(header, comms, [&](const Communicator& comm, const ndarray& buffer) {
        comm.broadcast(buffer, root);
    });
    if (header[0] != 0) {
        return {"refused", {}, {}};
    }
    return {"", Shape(header.begin() + 3, header.begin() + 3 + header[2]),
            static_cast<DType>(header[1])};
}

// Why this process's arguments disagree with the root's, or "".
std::string disagreement(const Description& mine, const Description& root) {
    if (mine.shape && *mine.shape != *root.shape) {
        return "argument 'shape' " + to_string(*mine.shape) + " differs from the root's " +
               to_string(*root.shape);
    }
    if (mine.dtype && *mine.dtype != *root.dtype) {
        return "the element type " + std::string(name(*mine.dtype)) + " differs from the root's " +
               std::string(name(*root.dtype));
    }
    return "";
}

// `whole` (C-contiguous on the root's device, on the root's process; else unused) cut into the
// blocks of `index_map` on their ranks.
DistributedArray scatter_whole(const ndarray& whole, const Description& mine, int root,
                               const Communicators& comms, std::optional<IndexMap> index_map) {
    const char* function = "scatter";
    detail::check_communicators(comms, function);
    const std::string where = "kiln: distributed.scatter: ";
    const int ranks = comms->front().size();
    if (root < 0 || root >= ranks) {
        throw ValueError(where + "argument 'root' is " + std::to_string(root) +
                         " but the communicator has ranks 0 to " + std::to_string(ranks - 1));
    }
    const bool is_root = detail::local_rank(comms, root) != nullptr;
    const Description theirs = root_description(mine, root, comms);
    if (!theirs.refused.empty()) {
        throw ValueError(where + (is_root ? mine.refused
                                          : "rank " + std::to_string(root) +
                                                " (the root) refused its input; its process "
                                                "says why"));
    }
    const std::string mismatch = is_root ? "" : disagreement(mine, theirs);
    const std::int64_t anyone = exchange({mismatch.empty() ? 0 : 1}, comms,
                                         [](const Communicator& comm, const ndarray& flag) {
                                             comm.all_reduce(flag, ReduceOp::max);
                                         })
                                    .front();
    if (anyone != 0) {
        throw ValueError(where + (mismatch.empty()
                                      ? "another process's arguments differ from the root's"
                                      : mismatch));
    }
    const Shape& shape = *theirs.shape;
    IndexMap map = index_map ? std::move(*index_map) : detail::default_index_map(shape, ranks);
    detail::check_index_map(map, shape, ranks, function);
    std::vector<AxisRange> everything;
    for (const std::int64_t extent : shape) {
        everything.push_back({0, extent});
    }
    std::vector<Shard> held;
    if (is_root) {
        held.push_back({0, whole, {}});
    }
    const DistributedArray source(shape, *theirs.dtype, {{root, everything}}, comms,
                                  std::move(held), function);
    std::map<std::size_t, ndarray> blocks = detail::fetch_blocks(source, map);
    std::vector<Shard> shards;
    shards.reserve(blocks.size());
    for (auto& [index, block] : blocks) {
        shards.push_back({index, std::move(block), {}});
    }
    return {shape, *theirs.dtype, std::move(map), comms, std::move(shards), function};
}

// Whether every rank of `comms` (which hold this process's root) is in this process.
bool every_rank_here(const Communicators& comms) {
    detail::check_communicators(comms, "scatter");
    return static_cast<int>(comms->size()) == comms->front().size();
}

// `source` as a C-contiguous array on `device`, copying only when it is not one already.
ndarray contiguous_on(const ndarray& source, int device) {
    if (source.device() == device && source.c_contiguous()) {
        return source;
    }
    const DeviceGuard guard{Device(device)};
    ndarray copy = kiln::empty(source.shape(), source.dtype());
    copyto(copy, source);
    return copy;
}

}  // namespace

DistributedArray scatter(const ndarray& source, int root, const Communicators& comms,
                         std::optional<IndexMap> index_map) {
    const Communicator* holder = comms ? detail::local_rank(comms, root) : nullptr;
    if (holder == nullptr) {
        return scatter_whole({}, {}, root, comms, std::move(index_map));
    }
    if (every_rank_here(comms)) {
        return detail::array_of_blocks(source, std::move(index_map), comms, "scatter");
    }
    if (source.shape().size() > header_axes) {
        return scatter_whole({},
                             {"argument 'source' has " + std::to_string(source.ndim()) +
                                  " axes; at most 64 can be scattered",
                              {},
                              {}},
                             root, comms, std::move(index_map));
    }
    return scatter_whole(contiguous_on(source, holder->device()),
                         {"", source.shape(), source.dtype()}, root, comms, std::move(index_map));
}

namespace detail {

DistributedArray scatter_from_host(const void* values, std::size_t count, DType dtype,
                                   const Shape& shape, int root, const Communicators& comms,
                                   std::optional<IndexMap> index_map) {
    std::int64_t size = 1;
    for (const std::int64_t extent : shape) {
        size *= extent;
    }
    const Communicator* holder = comms ? local_rank(comms, root) : nullptr;
    Description mine{"", shape, dtype};
    if (holder != nullptr && static_cast<std::int64_t>(count) != size) {
        mine.refused = "argument 'values' holds " + std::to_string(count) + " elements but shape " +
                       to_string(shape) + " has " + std::to_string(size);
    } else if (holder != nullptr && shape.size() > header_axes) {
        mine.refused = "argument 'shape' has " + std::to_string(shape.size()) +
                       " axes; at most 64 can be scattered";
    }
    if (holder != nullptr && every_rank_here(comms)) {
        if (!mine.refused.empty()) {
            throw ValueError("kiln: distributed.scatter: " + mine.refused);
        }
        return array_of_host_blocks(static_cast<const std::byte*>(values), dtype, shape,
                                    std::move(index_map), comms, "scatter");
    }
    ndarray whole;
    if (holder != nullptr && mine.refused.empty()) {
        const DeviceGuard guard{Device(holder->device())};
        whole = kiln::empty(shape, dtype);
        const auto* first = static_cast<const std::uint8_t*>(values);
        byte_view(whole).set<std::uint8_t>(
            std::vector<std::uint8_t>(first, first + whole.nbytes()));
    }
    return scatter_whole(whole, mine, root, comms, std::move(index_map));
}

}  // namespace detail

}  // namespace kiln::distributed
