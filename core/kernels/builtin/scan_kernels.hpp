// Inclusive scans (cumsum, cumprod) of contiguous rows in one pass: each block scans a tile and
// finds its prefix by looking back at the tiles before it (decoupled look-back), so the data is
// read once and written once, as a copy is. Rows too short for tiles to pay, with many of them
// side by side in memory, scan down columns instead, a thread per column.
#pragma once

#include "../../backend_traits.hpp"

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

// The generated sources (exposed so that tests compile every one). On the host a row is scanned by
// one thread, a block a row.
[[nodiscard]] std::string row_scan_source(ScanOperation operation, const ScanDtypes& dtypes,
                                          Dialect dialect = Dialect::gpu);
[[nodiscard]] std::string column_scan_source(ScanOperation operation, const ScanDtypes& dtypes,
                                             Dialect dialect = Dialect::gpu);

// Scans `rows` contiguous rows of `length` elements from `in` into `out` (both C-contiguous).
void scan_rows(ScanOperation operation, const ScanDtypes& dtypes, const void* in, void* out,
               std::int64_t rows, std::int64_t length, StreamView stream);

// Scans a C-contiguous (outer, length, inner) array along its middle axis.
void scan_columns(ScanOperation operation, const ScanDtypes& dtypes, const void* in, void* out,
                  std::int64_t outer, std::int64_t length, std::int64_t inner, StreamView stream);

}  // namespace kiln::detail
