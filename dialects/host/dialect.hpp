// The host dialect: kernels as C++ functions of a launch's block range, which the host backend's
// compiler builds into a shared object and its thread pool runs (kiln/host.h).
// docs/design.md, "Kernel dialects", lists the files every dialect has.
#pragma once

#include "../../core/codegen/kernel_dialect.hpp"

namespace kiln::detail::host_dialect {

// The table the backend traits name.
[[nodiscard]] const KernelDialect& dialect();

// Its entries (kernel_entry.cpp, dialect.cpp), as kernel_dialect.hpp describes them.
[[nodiscard]] std::string kernel_opening(std::string_view name, std::string_view params,
                                         std::string_view attributes);
[[nodiscard]] std::string kernel_closing(std::string_view name);
[[nodiscard]] std::string_view for_each_index_macro() noexcept;
[[nodiscard]] IndexGrid index_grid(std::int64_t count, std::int64_t multiprocessors);
[[nodiscard]] std::span<const DialectHeader> device_headers();

}  // namespace kiln::detail::host_dialect
