// The host dialect's part of kiln's own matrix product.
#pragma once

#include "../../core/kernels/builtin/matmul_dialect.hpp"

namespace kiln::detail::host_dialect {

extern const MatmulDialect matmul_part;

}  // namespace kiln::detail::host_dialect
