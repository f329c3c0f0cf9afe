// The GPU dialect's part of ElementwiseKernel: the loops, the launch planner and the numbers both
// share.
#pragma once

#include "../../core/kernels/elementwise/elementwise_dialect.hpp"
#include "dialect.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::detail::gpu_dialect {

// Threads per block of every launch (the tiled mode's loops count on it).
inline constexpr int elementwise_block = block_threads;

// Shared memory of one operand's tile in tiled mode (32 rows of 33, padded against bank
// conflicts), rounded up to 16 bytes; the tiles lie in operand order.
[[nodiscard]] std::size_t tile_bytes(std::size_t itemsize);

// Elements each thread takes per step of the contiguous and row loops: K const inputs are read
// ahead of the operation (about 16 bytes of the widest, and at least two items), so that more
// loads are in flight.
[[nodiscard]] int elements_per_thread(const ElementwiseDefinition& definition,
                                      const ElementwiseVariant& variant);

// Dynamic shared memory the tiled mode of a 2-d strided variant needs; 0 when it has none.
[[nodiscard]] std::size_t tiled_shared_bytes(const ElementwiseDefinition& definition,
                                             const ElementwiseVariant& variant);

// The kernel's body between its prologue and after_loop, indented for it.
[[nodiscard]] std::string elementwise_loops(const std::vector<LoopOperand>& operands,
                                            const LoopShape& shape);

// The launch of a call with `values` (size > 0) on a device of `multiprocessors` SMs or CUs.
[[nodiscard]] ElementwiseLaunch elementwise_launch(const ElementwiseDefinition& definition,
                                                   const ElementwiseVariant& variant,
                                                   const CallValues& values,
                                                   std::int64_t multiprocessors);

extern const ElementwiseDialect elementwise_part;

}  // namespace kiln::detail::gpu_dialect
