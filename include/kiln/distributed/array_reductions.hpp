/// @file
/// Reductions of distributed arrays, with NumPy's dtypes (kiln/reductions.hpp). Over every
/// element: each shard reduces on its device, one all_gather brings every rank's partial results
/// to every rank, and they reduce once more; the result is a 0-d ndarray on the device of the
/// first local rank (comms()[0]), the same on every process. These are collective.
///
/// Along one axis, the result is a distributed array without that axis. Where no shard splits the
/// axis, each shard reduces on its own, nothing moves, and the result keeps the partition of the
/// other axes. Along a split axis, the shards covering the same ranges of the other axes form a
/// group: each reduces its block, the partial results of a group go to the rank of its first
/// shard (in index_map() order) by send and recv, all groups in one communicator group, and
/// reduce once more there. That rank alone holds the group's block of the result: every element
/// stays in exactly one shard, as an index map requires. (Heat replicates such a result on every
/// process, and CuPy keeps a partial value on each device until it is read; neither holds one
/// copy.) Shards whose ranges along the other axes overlap without being equal are a ValueError:
/// redistribute first. Float results may differ from one device's in rounding (the partial sums
/// add in another order); integer and bool results, max, min and the arg-reductions are exact.
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

/// The sums along `axis` (numpy.sum(a, axis)).
[[nodiscard]] DistributedArray sum(const DistributedArray& a, std::int64_t axis);
/// The products along `axis` (numpy.prod(a, axis)).
[[nodiscard]] DistributedArray prod(const DistributedArray& a, std::int64_t axis);
/// The largest elements along `axis` (numpy.max(a, axis)); NaN where any is NaN.
[[nodiscard]] DistributedArray max(const DistributedArray& a, std::int64_t axis);
/// The smallest elements along `axis` (numpy.min(a, axis)); NaN where any is NaN.
[[nodiscard]] DistributedArray min(const DistributedArray& a, std::int64_t axis);
/// The means along `axis` (numpy.mean(a, axis)): float64 for bool and integers.
[[nodiscard]] DistributedArray mean(const DistributedArray& a, std::int64_t axis);
/// The variances along `axis`, divided by the extent - ddof (numpy.var(a, axis, ddof=ddof)):
/// along a split axis two passes, the means first. ddof has no default here: var(a, n) is
/// var of every element with ddof n.
[[nodiscard]] DistributedArray var(const DistributedArray& a, std::int64_t axis, int ddof);
/// The standard deviations along `axis`, the square roots of var (numpy.std(a, axis, ddof=ddof)).
[[nodiscard]] DistributedArray std(const DistributedArray& a, std::int64_t axis, int ddof);
/// The 2-norms along `axis` (numpy.linalg.norm(a, axis=axis)), in norm's dtypes.
[[nodiscard]] DistributedArray norm(const DistributedArray& a, std::int64_t axis);
/// The index along `axis` of the largest element of each lane, its first occurrence (or the
/// first NaN), as int64 (numpy.argmax(a, axis)).
[[nodiscard]] DistributedArray argmax(const DistributedArray& a, std::int64_t axis);
/// The index along `axis` of the smallest element of each lane, its first occurrence (or the
/// first NaN), as int64 (numpy.argmin(a, axis)).
[[nodiscard]] DistributedArray argmin(const DistributedArray& a, std::int64_t axis);

}  // namespace kiln::distributed
