// The gpu dialect's part of the scans.
#pragma once

#include "../../core/kernels/builtin/scan_dialect.hpp"

#include <string>

namespace kiln::detail::gpu_dialect {

// The row scan's source (exposed so that tests compile every one).
[[nodiscard]] std::string row_scan_source(ScanOperation operation, const ScanDtypes& dtypes);

extern const ScanDialect scan_part;

}  // namespace kiln::detail::gpu_dialect
