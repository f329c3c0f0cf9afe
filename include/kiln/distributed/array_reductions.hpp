/// @file
/// Reductions of distributed arrays, with NumPy's dtypes (kiln/reductions.hpp). Over every
/// element: each shard reduces on its device, one all_gather brings every rank's partial results
/// to every rank, and they reduce once more; the result is a 0-d ndarray on the device of the
/// first local rank (comms()[0]), the same on every process. These are collective. Along one
/// axis that no shard splits: shard by shard, no communication, and the result keeps the
/// partition of the other axes. Reducing along a split axis is a ValueError (not yet done).
#pragma once

#include <kiln/distributed/array.hpp>
#include <kiln/ndarray.hpp>

#include <cstdint>

namespace kiln::distributed {

/// The sum of every element (numpy.sum).
[[nodiscard]] ndarray sum(const DistributedArray& a);
/// The product of every element (numpy.prod).
[[nodiscard]] ndarray prod(const DistributedArray& a);
/// The largest element (numpy.max); NaN when any is NaN.
[[nodiscard]] ndarray max(const DistributedArray& a);
/// The smallest element (numpy.min); NaN when any is NaN.
[[nodiscard]] ndarray min(const DistributedArray& a);
/// The arithmetic mean of every element (numpy.mean): float64 for bool and integers.
[[nodiscard]] ndarray mean(const DistributedArray& a);
/// The variance, the mean squared deviation from mean(a) divided by size - ddof (numpy.var):
/// two passes, the mean first.
[[nodiscard]] ndarray var(const DistributedArray& a, int ddof = 0);
/// The standard deviation, the square root of var (numpy.std).
[[nodiscard]] ndarray std(const DistributedArray& a, int ddof = 0);

/// The flat index of the largest element, its first occurrence (or the first NaN), as int64
/// (numpy.argmax).
[[nodiscard]] ndarray argmax(const DistributedArray& a);
/// The flat index of the smallest element, its first occurrence (or the first NaN), as int64
/// (numpy.argmin).
[[nodiscard]] ndarray argmin(const DistributedArray& a);
/// The 2-norm of the flattened array, sqrt(sum(abs(a)**2)) (numpy.linalg.norm(a.ravel())):
/// float64 for bool and integers, the real dtype of complex arrays.
[[nodiscard]] ndarray norm(const DistributedArray& a);

/// The sums along `axis`, which no shard splits (numpy.sum(a, axis)).
[[nodiscard]] DistributedArray sum(const DistributedArray& a, std::int64_t axis);
/// The products along `axis`, which no shard splits (numpy.prod(a, axis)).
[[nodiscard]] DistributedArray prod(const DistributedArray& a, std::int64_t axis);
/// The largest elements along `axis`, which no shard splits (numpy.max(a, axis)).
[[nodiscard]] DistributedArray max(const DistributedArray& a, std::int64_t axis);
/// The smallest elements along `axis`, which no shard splits (numpy.min(a, axis)).
[[nodiscard]] DistributedArray min(const DistributedArray& a, std::int64_t axis);
/// The means along `axis`, which no shard splits (numpy.mean(a, axis)).
[[nodiscard]] DistributedArray mean(const DistributedArray& a, std::int64_t axis);

}  // namespace kiln::distributed
