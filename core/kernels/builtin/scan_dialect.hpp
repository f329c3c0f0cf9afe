// What a kernel dialect supplies for the scans: the scan of contiguous rows, whose algorithm is
// its own (a GPU's decoupled look-back, the host's chunks across threads).
#pragma once

#include "scan_kernels.hpp"

#include <cstdint>

namespace kiln::detail {

struct ScanDialect {
    // Scans `rows` (> 0) contiguous rows of `length` (> 0) elements from `in` into `out` on
    // `stream`.
    void (*scan_rows)(ScanOperation operation, const ScanDtypes& dtypes, const void* in, void* out,
                      std::int64_t rows, std::int64_t length, StreamView stream);
};

}  // namespace kiln::detail
