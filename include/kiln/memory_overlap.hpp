/// @file
/// Whether two arrays' memory may overlap, as numpy.may_share_memory answers by default.
#pragma once

#include <kiln/ndarray.hpp>

namespace kiln {

/// True when the bytes from the lowest to the highest address `a` touches intersect those of `b`
/// (a bounds check: a[::2] and a[1::2] may share memory, though no element is common). Arrays
/// with no elements share nothing.
[[nodiscard]] bool may_share_memory(const ndarray& a, const ndarray& b);

}  // namespace kiln
