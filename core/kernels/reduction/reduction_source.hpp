// ReductionKernel's code generator. A kernel definition plus a variant (pure data: dtypes and
// collapsed ranks, no arrays) gives the source of two kernels: `<name>` maps and reduces a chunk
// of each output's reduction, either straight into the outputs or into partials when the chunks
// are split over blocks, and `<name>_finish` reduces those partials. Both take the strategy
// (lanes per output, their order in the block, chunk length) at run time, so one binary serves
// every shape of a variant.
#pragma once

#include "../../codegen/kernel_dialect.hpp"
#include "reduction_definition.hpp"

#include <kiln/dtype.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace kiln::detail {

// How a reduce kernel walks its inputs, where its dialect writes one per layout (GPU kernels take
// every layout at run time, as `strided`). `strided` maps each element through run-time strides.
// `rows`: every array input steps one item along the one reduced axis, so the kernel indexes plain
// pointers and keeps a row of accumulators over consecutive elements, a loop the compiler
// vectorises. `columns`: every array input steps one item along the innermost output axis, so the
// kernel sweeps the reduced elements in the outer loop and accumulates a tile of consecutive
// outputs at once (loop interchange).
enum class ReductionLayout : unsigned char { strided, rows, columns };

// One compiled form of a definition.
struct ReductionVariant {
    std::vector<DType> in_dtypes;  // per in param
    std::vector<bool> in_scalar;   // per in param: passed by value
    std::vector<DType> out_dtypes;
    std::vector<DType> reduce_dtypes;  // one, or one per tuple member
    std::size_t out_ndim = 1;          // collapsed ranks, at least 1
    std::size_t reduce_ndim = 1;
    bool index32 = true;
    const KernelDialect* dialect = nullptr;  // the one that writes it; none: the active backend's
    ReductionLayout layout =
        ReductionLayout::strided;  // as the dialect chose (reduction_dialect.hpp)
};

// The dialect that writes `v`.
[[nodiscard]] const KernelDialect& dialect_of(const ReductionVariant& v);

// The threads of a block: every output's reduction is shared by `lanes` threads.
inline constexpr int reduction_block = 256;

// `_type_reduce`'s size and alignment on the device.
[[nodiscard]] std::size_t reduce_type_size(const std::vector<DType>& members);

[[nodiscard]] std::string reduction_source(const ReductionDefinition& k, const ReductionVariant& v);
[[nodiscard]] std::string finish_name(const ReductionDefinition& k);
// A short text that tells variants apart.
[[nodiscard]] std::string variant_key(const ReductionVariant& v);

}  // namespace kiln::detail
