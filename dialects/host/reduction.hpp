// The host dialect's part of ReductionKernel.
#pragma once

#include "../../core/kernels/reduction/reduction_dialect.hpp"

namespace kiln::detail::host_dialect {

// The loop over the blocks [_kiln_grid.first, _kiln_grid.end) of blockDim.x outputs each, through
// the block's outputs [_bx * _groups, _last), with `grid.y` chunks [_begin, _end) of the
// reduction (`by_chunks`) or one. Leaves the loop open.
[[nodiscard]] std::string host_block_loop(const std::string& index, bool by_chunks);
// Opens the loop over the block's outputs _o.
[[nodiscard]] std::string host_output_loop(const std::string& index);

// The loop over one output's elements `_J` in [first, end) through `_map`, into `_acc`.
[[nodiscard]] std::string host_element_loop(const ReductionDefinition& k, const std::string& index,
                                            const std::string& first, const std::string& end);

// The reduce kernel of `v.layout`.
[[nodiscard]] std::string host_main_kernel(const ReductionDefinition& k, const ReductionVariant& v);

// The plan on `device.multiprocessors` CPU threads: one thread per output (lanes 1), blocks of
// consecutive outputs, and a long reduction of few outputs split into chunks so that every thread
// has a wave of blocks. A `columns` kernel's blocks are wide enough that each row it reads is long.
[[nodiscard]] ReductionLaunchPlan plan_reduction_launch(const ReductionShape& shape,
                                                        const ReductionDevice& device);

extern const ReductionDialect reduction_part;

}  // namespace kiln::detail::host_dialect
