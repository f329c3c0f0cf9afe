// Inclusive scans (cumsum, cumprod) of contiguous rows in one pass: each block scans a tile and
// finds its prefix by looking back at the tiles before it (decoupled look-back), so the data is
// read once and written once, as a copy is. Rows too short for tiles to pay, with many of them
// side by side in memory, scan down columns instead, a thread per column.
#pragma once

#include "../../codegen/kernel_dialect.hpp"

#include <kiln/dtype.hpp>
#include <kiln/stream_view.hpp>

#include <cstdint>
#include <string>

namespace kiln::detail {

enum class ScanOperation : std::uint8_t { sum, product };

// The dtypes of one scan kernel: it reads `in`, combines in `accumulator` and writes `out`.
struct ScanDtypes {
    DType in;
    DType accumulator;
    DType out;
};

// What every scan kernel's source starts with: the dtypes' typedefs, the identity and kiln_op.
[[nodiscard]] std::string scan_typedefs(ScanOperation operation, const ScanDtypes& dtypes);

// Tells scan kernels of different operations and dtypes apart (BuiltinKernel::function's variant).
[[nodiscard]] std::string scan_variant(ScanOperation operation, const ScanDtypes& dtypes);

// The column scan's source in `dialect` (exposed so that tests compile every one); the row scan's
// is its dialect's (scan_dialect.hpp).
[[nodiscard]] std::string column_scan_source(ScanOperation operation, const ScanDtypes& dtypes,
                                             const KernelDialect& dialect);

// Scans `rows` contiguous rows of `length` elements from `in` into `out` (both C-contiguous).
void scan_rows(ScanOperation operation, const ScanDtypes& dtypes, const void* in, void* out,
               std::int64_t rows, std::int64_t length, StreamView stream);

// Scans a C-contiguous (outer, length, inner) array along its middle axis.
void scan_columns(ScanOperation operation, const ScanDtypes& dtypes, const void* in, void* out,
                  std::int64_t outer, std::int64_t length, std::int64_t inner, StreamView stream);

}  // namespace kiln::detail
