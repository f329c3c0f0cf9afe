#include "index_map.hpp"

#include <kiln/error.hpp>

#include <algorithm>
#include <cstddef>
#include <set>
#include <string>

namespace kiln::distributed {

namespace {

std::string prefix(const char* function, const char* argument) {
    return std::string("kiln: distributed.") + function + ": argument '" + argument + "' ";
}

std::string to_string(const ShardIndex& shard) {
    std::string text = "rank " + std::to_string(shard.rank) + " [";
    for (std::size_t axis = 0; axis < shard.ranges.size(); ++axis) {
        text += (axis == 0 ? "" : ", ") + std::to_string(shard.ranges[axis].begin) + ":" +
                std::to_string(shard.ranges[axis].end);
    }
    return text + "]";
}

bool overlap(const ShardIndex& a, const ShardIndex& b) {
    for (std::size_t axis = 0; axis < a.ranges.size(); ++axis) {
        if (a.ranges[axis].end <= b.ranges[axis].begin ||
            b.ranges[axis].end <= a.ranges[axis].begin) {
            return false;
        }
    }
    return true;
}

std::int64_t volume(const ShardIndex& shard) {
    std::int64_t n = 1;
    for (const AxisRange& range : shard.ranges) {
        n *= range.end - range.begin;
    }
    return n;
}

// ValueError unless `bounds` rises from 0 to `extent`.
void check_bounds(const std::vector<std::int64_t>& bounds, std::int64_t extent, const char* name) {
    const bool rising = std::is_sorted(bounds.begin(), bounds.end()) &&
                        std::adjacent_find(bounds.begin(), bounds.end()) == bounds.end();
    if (bounds.size() < 2 || bounds.front() != 0 || bounds.back() != extent || !rising) {
        throw ValueError(prefix("make_2d_index_map", name) +
                         "must rise strictly from 0 to the extent " + std::to_string(extent));
    }
}

}  // namespace

IndexMap split_index_map(const Shape& shape, int ranks, std::int64_t axis) {
    if (ranks < 1) {
        throw ValueError(prefix("split_index_map", "ranks") + "is " + std::to_string(ranks) +
                         " but must be at least 1");
    }
    const auto ndim = static_cast<std::int64_t>(shape.size());
    if (axis < -ndim || axis >= ndim) {
        throw IndexError(prefix("split_index_map", "axis") + std::to_string(axis) +
                         " is out of bounds for shape " + kiln::to_string(shape));
    }
    const auto split = static_cast<std::size_t>(axis < 0 ? axis + ndim : axis);
    const std::int64_t extent = shape[split];
    const std::int64_t base = extent / ranks;
    const std::int64_t longer = extent % ranks;
    IndexMap map;
    std::int64_t begin = 0;
    for (int r = 0; r < ranks; ++r) {
        ShardIndex shard{r, {}};
        for (const std::int64_t n : shape) {
            shard.ranges.push_back({0, n});
        }
        const std::int64_t length = base + (r < longer ? 1 : 0);
        shard.ranges[split] = {begin, begin + length};
        begin += length;
        map.push_back(std::move(shard));
    }
    return map;
}

IndexMap make_2d_index_map(const Shape& shape, const std::vector<std::int64_t>& row_bounds,
                           const std::vector<std::int64_t>& column_bounds,
                           const std::vector<std::vector<int>>& ranks) {
    if (shape.size() != 2) {
        throw ValueError(prefix("make_2d_index_map", "shape") + kiln::to_string(shape) +
                         " must have two axes");
    }
    check_bounds(row_bounds, shape[0], "row_bounds");
    check_bounds(column_bounds, shape[1], "column_bounds");
    const std::size_t rows = row_bounds.size() - 1;
    const std::size_t columns = column_bounds.size() - 1;
    if (ranks.size() != rows || std::any_of(ranks.begin(), ranks.end(), [&](const auto& row) {
            return row.size() != columns;
        })) {
        throw ValueError(prefix("make_2d_index_map", "ranks") + "must be " + std::to_string(rows) +
                         " rows of " + std::to_string(columns) + " ranks, one per block");
    }
    IndexMap map;
    for (std::size_t i = 0; i < rows; ++i) {
        for (std::size_t j = 0; j < columns; ++j) {
            map.push_back(
                {ranks[i][j],
                 {{row_bounds[i], row_bounds[i + 1]}, {column_bounds[j], column_bounds[j + 1]}}});
        }
    }
    return map;
}

namespace detail {

Shape shard_shape(const ShardIndex& shard) {
    Shape shape;
    for (const AxisRange& range : shard.ranges) {
        shape.push_back(range.end - range.begin);
    }
    return shape;
}

bool has_shard_shape(const Shape& shape, const ShardIndex& shard) {
    return shape.size() == shard.ranges.size() &&
           std::equal(shape.begin(), shape.end(), shard.ranges.begin(),
                      [](std::int64_t extent, const AxisRange& range) {
                          return extent == range.end - range.begin;
                      });
}

std::vector<Index> shard_slices(const ShardIndex& shard) {
    std::vector<Index> slices;
    for (const AxisRange& range : shard.ranges) {
        slices.emplace_back(Slice{range.begin, range.end});
    }
    return slices;
}

void check_communicators(const Communicators& comms, const char* function) {
    if (!comms || comms->empty()) {
        throw ValueError(prefix(function, "comms") + "must hold at least one communicator");
    }
    std::set<int> ranks;
    for (const Communicator& comm : *comms) {
        if (comm.size() != comms->front().size()) {
            throw ValueError(prefix(function, "comms") + "mixes communicators of " +
                             std::to_string(comms->front().size()) + " and " +
                             std::to_string(comm.size()) + " ranks");
        }
        if (!ranks.insert(comm.rank()).second) {
            throw ValueError(prefix(function, "comms") + "holds rank " +
                             std::to_string(comm.rank()) + " twice");
        }
    }
}

void check_index_map(const IndexMap& map, const Shape& shape, int ranks, const char* function) {
    const std::string where = prefix(function, "index_map");
    std::int64_t covered = 0;
    for (std::size_t s = 0; s < map.size(); ++s) {
        const ShardIndex& shard = map[s];
        if (shard.rank < 0 || shard.rank >= ranks) {
            throw ValueError(where + "puts shard " + std::to_string(s) + " on rank " +
                             std::to_string(shard.rank) + " but the communicator has " +
                             std::to_string(ranks) + " ranks");
        }
        bool inside = shard.ranges.size() == shape.size();
        for (std::size_t axis = 0; inside && axis < shape.size(); ++axis) {
            const AxisRange& range = shard.ranges[axis];
            inside = range.begin >= 0 && range.begin <= range.end && range.end <= shape[axis];
        }
        if (!inside) {
            throw ValueError(where + "shard " + std::to_string(s) + " (" + to_string(shard) +
                             ") does not lie inside shape " + kiln::to_string(shape));
        }
        for (std::size_t t = 0; t < s; ++t) {
            if (volume(shard) > 0 && volume(map[t]) > 0 && overlap(shard, map[t])) {
                throw ValueError(where + "shards " + std::to_string(t) + " and " +
                                 std::to_string(s) + " overlap");
            }
        }
        covered += volume(shard);
    }
    std::int64_t size = 1;
    for (const std::int64_t n : shape) {
        size *= n;
    }
    if (map.empty() || covered != size) {
        throw ValueError(where + "covers " + std::to_string(covered) + " of the " +
                         std::to_string(size) + " elements of shape " + kiln::to_string(shape) +
                         " (every element must be in one shard)");
    }
}

IndexMap default_index_map(const Shape& shape, int ranks) {
    return shape.empty() ? IndexMap{ShardIndex{0, {}}} : split_index_map(shape, ranks);
}

const Communicator* local_rank(const Communicators& comms, int rank) {
    const auto found = std::find_if(comms->begin(), comms->end(),
                                    [&](const Communicator& comm) { return comm.rank() == rank; });
    return found == comms->end() ? nullptr : &*found;
}

bool holds_every_rank(const Communicators& comms) {
    return static_cast<int>(comms->size()) == comms->front().size();
}

}  // namespace detail

}  // namespace kiln::distributed
