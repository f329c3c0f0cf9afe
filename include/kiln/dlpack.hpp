/// @file
/// Zero-copy exchange of arrays with other libraries through DLPack (PyTorch, JAX, CuPy, ...).
#pragma once

#include <kiln/ndarray.hpp>

struct DLManagedTensor;

namespace kiln {

/// Exports `a` without copying. The tensor keeps a's memory alive until the consumer calls its
/// deleter. Throws Error when a stride is not a whole number of elements.
[[nodiscard]] DLManagedTensor* to_dlpack(const ndarray& a);

/// Imports `tensor` without copying; kiln calls its deleter when the last view is gone. Throws
/// TypeError for an element type kiln lacks, Error for memory not on a device of the active
/// backend. On an exception the tensor stays the caller's.
[[nodiscard]] ndarray from_dlpack(DLManagedTensor* tensor);

}  // namespace kiln
