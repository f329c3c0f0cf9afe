/// @file
/// Matrix products of distributed arrays.
///
/// A row-block array times a replicated operand: the operand is a plain ndarray that every
/// process passes whole (its own copy, as distributed_array(ndarray) takes its source), since
/// kiln has no replicated DistributedArray. Each shard's rows multiply it on their own device
/// (kiln::matmul, which copies the operand there once per device when it lives elsewhere), so
/// the product needs no communication and keeps the row partition.
///
/// Two distributed operands: a block product in SUMMA's manner. The shared axis is cut into panels
/// at every cut of a's columns and of b's rows; for each panel, every block of the result fetches
/// the panel's rows of a and columns of b onto its rank (point-to-point transfers in one group,
/// the row and column broadcasts of SUMMA) and adds their product. Only one panel is held at a
/// time.
#pragma once

#include <kiln/distributed/array.hpp>
#include <kiln/ndarray.hpp>

#include <optional>

namespace kiln::distributed {

/// a @ b (numpy.matmul) for a 2-D `a` cut into row blocks (no shard splits axis 1) and `b` of
/// shape (K, N) or (K,), K being a's column count: a DistributedArray of shape (M, N) or (M,)
/// whose shard s holds the rows of a's shard s, on the same rank. The dtype is kiln::matmul's.
/// ValueError naming the argument for an `a` that is not 2-D or splits its columns, ShapeError
/// naming both shapes when K differs. Collective only in that every process must call it.
[[nodiscard]] DistributedArray matmul(const DistributedArray& a, const ndarray& b);

/// a @ b for 2-D distributed `a` (M, K) and `b` (K, N) on the same communicators, any maps: a
/// DistributedArray (M, N) cut by `index_map`. By default a's row blocks by b's column blocks,
/// block (i, j) on the rank of a's block (i, j), which needs both maps to be grids
/// (make_2d_index_map's kind, row blocks included) and a to have as many column blocks as b. The
/// dtype is kiln::matmul's; sums run panel by panel, so floating results may differ from one
/// device's in the last places. ValueError naming the argument for operands that are not 2-D, on
/// other communicators, or a default map that cannot be made; ShapeError naming both shapes when K
/// differs. Collective.
[[nodiscard]] DistributedArray matmul(const DistributedArray& a, const DistributedArray& b,
                                      std::optional<IndexMap> index_map = std::nullopt);

}  // namespace kiln::distributed
