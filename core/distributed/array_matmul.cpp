// Products of distributed arrays: a row-block array times a replicated ndarray, shard by shard on
// each shard's device; two distributed arrays panel by panel (SUMMA).
#include "block_moves.hpp"
#include "index_map.hpp"

#include <kiln/distributed/array_matmul.hpp>
#include <kiln/error.hpp>
#include <kiln/linalg.hpp>
#include <kiln/manipulation.hpp>
#include <kiln/ufuncs.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kiln::distributed {

namespace {

constexpr const char* where = "kiln: distributed.matmul: ";

// ValueError unless `a` is 2-D and cut into row blocks; ShapeError unless `b` has a's columns as
// its first axis.
void check_operands(const DistributedArray& a, const ndarray& b) {
    if (a.ndim() != 2) {
        throw ValueError(std::string(where) + "argument 'a' has " + std::to_string(a.ndim()) +
                         " axes but must be 2-D (rows by columns)");
    }
    const std::int64_t columns = a.shape()[1];
    for (std::size_t s = 0; s < a.index_map().size(); ++s) {
        if (a.index_map()[s].ranges[1] != AxisRange{0, columns}) {
            throw ValueError(std::string(where) + "argument 'a': shard " + std::to_string(s) +
                             " splits axis 1, but a row-block array's shards span every column "
                             "(redistribute it to row blocks first)");
        }
    }
    if (b.ndim() != 1 && b.ndim() != 2) {
        throw ValueError(std::string(where) + "argument 'b' has " + std::to_string(b.ndim()) +
                         " axes but must be 1-D or 2-D");
    }
    if (b.shape()[0] != columns) {
        throw ShapeError(std::string(where) + "argument 'a' of shape " + to_string(a.shape()) +
                         " has " + std::to_string(columns) + " columns but argument 'b' of shape " +
                         to_string(b.shape()) + " has " + std::to_string(b.shape()[0]) + " rows");
    }
}

// kiln::matmul's dtype for operands of dtypes `a` and `b`, from an empty product on `device`: a
// process without shards learns it too.
DType product_dtype(DType a, DType b, int device) {
    const DeviceGuard guard{Device(device)};
    return kiln::matmul(kiln::empty({0, 1}, a), kiln::empty({1, 0}, b)).dtype();
}

// The distinct ranges of `map` along `axis`, in order.
std::vector<AxisRange> cuts(const IndexMap& map, std::size_t axis) {
    std::vector<AxisRange> ranges;
    for (const ShardIndex& shard : map) {
        ranges.push_back(shard.ranges[axis]);
    }
    std::sort(ranges.begin(), ranges.end(), [](const AxisRange& x, const AxisRange& y) {
        return x.begin != y.begin ? x.begin < y.begin : x.end < y.end;
    });
    ranges.erase(std::unique(ranges.begin(), ranges.end()), ranges.end());
    return ranges;
}

// a's row blocks by b's column blocks, block (i, j) on the rank of a's block (i, j).
IndexMap default_product_map(const DistributedArray& a, const DistributedArray& b) {
    const std::vector<AxisRange> rows = cuts(a.index_map(), 0);
    const std::vector<AxisRange> a_columns = cuts(a.index_map(), 1);
    const std::vector<AxisRange> columns = cuts(b.index_map(), 1);
    const auto no_default = [&](const std::string& why) {
        return ValueError(std::string(where) + why +
                          ", so the result's map cannot follow them: give argument 'index_map'");
    };
    if (rows.size() * a_columns.size() != a.index_map().size() ||
        cuts(b.index_map(), 0).size() * columns.size() != b.index_map().size()) {
        throw no_default("argument 'a' or 'b' is not a grid of blocks");
    }
    if (a_columns.size() != columns.size()) {
        throw no_default("argument 'a' has " + std::to_string(a_columns.size()) +
                         " column blocks and argument 'b' " + std::to_string(columns.size()));
    }
    IndexMap map;
    for (const AxisRange& row : rows) {
        for (std::size_t j = 0; j < columns.size(); ++j) {
            const auto block =
                std::find_if(a.index_map().begin(), a.index_map().end(), [&](const ShardIndex& s) {
                    return s.ranges[0] == row && s.ranges[1] == a_columns[j];
                });
            if (block == a.index_map().end()) {
                throw no_default("argument 'a' is not a grid of blocks");
            }
            map.push_back({block->rank, {row, columns[j]}});
        }
    }
    return map;
}

// The shared axis cut at every cut of a's columns and of b's rows.
std::vector<AxisRange> panels(const DistributedArray& a, const DistributedArray& b) {
    std::set<std::int64_t> bounds = {0, a.shape()[1]};
    for (const ShardIndex& shard : a.index_map()) {
        bounds.insert({shard.ranges[1].begin, shard.ranges[1].end});
    }
    for (const ShardIndex& shard : b.index_map()) {
        bounds.insert({shard.ranges[0].begin, shard.ranges[0].end});
    }
    std::vector<AxisRange> out;
    for (auto it = bounds.begin(); std::next(it) != bounds.end(); ++it) {
        out.push_back({*it, *std::next(it)});
    }
    return out;
}

void check_two_operands(const DistributedArray& a, const DistributedArray& b) {
    for (const auto& [array, argument] : {std::pair{&a, "'a'"}, std::pair{&b, "'b'"}}) {
        if (array->ndim() != 2) {
            throw ValueError(std::string(where) + "argument " + argument + " has " +
                             std::to_string(array->ndim()) + " axes but must be 2-D");
        }
    }
    if (a.comms() != b.comms()) {
        throw ValueError(std::string(where) +
                         "arguments 'a' and 'b' live on different communicators");
    }
    if (a.shape()[1] != b.shape()[0]) {
        throw ShapeError(std::string(where) + "argument 'a' of shape " + to_string(a.shape()) +
                         " has " + std::to_string(a.shape()[1]) +
                         " columns but argument 'b' of shape " + to_string(b.shape()) + " has " +
                         std::to_string(b.shape()[0]) + " rows");
    }
}

}  // namespace

DistributedArray matmul(const DistributedArray& a, const DistributedArray& b,
                        std::optional<IndexMap> index_map) {
    check_two_operands(a, b);
    IndexMap map = index_map ? std::move(*index_map) : default_product_map(a, b);
    const Shape shape = {a.shape()[0], b.shape()[1]};
    detail::check_index_map(map, shape, a.comms()->front().size(), "matmul");
    const DType dtype = product_dtype(a.dtype(), b.dtype(), a.comms()->front().device());
    std::map<std::size_t, ndarray> blocks;
    for (std::size_t t = 0; t < map.size(); ++t) {
        if (const Communicator* comm = detail::local_rank(a.comms(), map[t].rank)) {
            const DeviceGuard guard{Device(comm->device())};
            blocks.emplace(t, kiln::zeros(detail::shard_shape(map[t]), dtype));
        }
    }
    for (const AxisRange& panel : panels(a, b)) {
        std::vector<ShardIndex> a_panels;
        std::vector<ShardIndex> b_panels;
        for (const ShardIndex& block : map) {
            a_panels.push_back({block.rank, {block.ranges[0], panel}});
            b_panels.push_back({block.rank, {panel, block.ranges[1]}});
        }
        const std::map<std::size_t, ndarray> a_parts = detail::fetch_blocks(a, a_panels);
        const std::map<std::size_t, ndarray> b_parts = detail::fetch_blocks(b, b_panels);
        for (auto& [t, block] : blocks) {
            const DeviceGuard guard{Device(block.device())};
            UfuncOptions accumulate;
            accumulate.out = block;
            kiln::add(block, kiln::matmul(a_parts.at(t), b_parts.at(t)), accumulate);
        }
    }
    std::vector<Shard> shards;
    shards.reserve(blocks.size());
    for (auto& [t, block] : blocks) {
        shards.push_back({t, std::move(block), {}});
    }
    return {shape, dtype, std::move(map), a.comms(), std::move(shards), "matmul"};
}

DistributedArray matmul(const DistributedArray& a, const ndarray& b) {
    check_operands(a, b);
    const bool vector = b.ndim() == 1;
    IndexMap map;
    for (const ShardIndex& shard : a.index_map()) {
        ShardIndex product{shard.rank, {shard.ranges[0]}};
        if (!vector) {
            product.ranges.push_back({0, b.shape()[1]});
        }
        map.push_back(std::move(product));
    }
    std::map<int, ndarray> b_on;  // b on each device, copied there once
    std::vector<Shard> shards;
    shards.reserve(a.local_shards().size());
    for (const Shard& shard : a.local_shards()) {
        const int device = shard.array.device();
        const DeviceGuard guard{Device(device)};
        auto [it, fresh] = b_on.try_emplace(device);
        if (fresh) {
            it->second = b.device() == device ? b : kiln::empty(b.shape(), b.dtype());
            if (b.device() != device) {
                copyto(it->second, b);
            }
        }
        shards.push_back({shard.index, kiln::matmul(shard.array, it->second), {}});
    }
    Shape shape = {a.shape()[0]};
    if (!vector) {
        shape.push_back(b.shape()[1]);
    }
    return {std::move(shape),  product_dtype(a.dtype(), b.dtype(), b.device()),
            std::move(map),    a.comms(),
            std::move(shards), "matmul"};
}

}  // namespace kiln::distributed
