// A kernel dialect: the C++ a backend's generated kernels are written in and how they are
// launched. The backend traits name each backend's dialect; every family of generated kernels asks
// its dialect for what differs, so core/ never tests which dialect it has. The dialects live in
// dialects/<name>/, under the same file names (docs/design.md, "Kernel dialects").
#pragma once

#include "../backend.hpp"
#include "device_header_texts.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::detail {

struct ElementwiseDialect;
struct MatmulDialect;
struct ReductionDialect;
struct ScanDialect;

// One of a dialect's own device headers: its include name and its embedded file.
struct DialectHeader {
    std::string_view name;
    header_text::DeviceFile file;
};

// The launch of a kernel whose threads (a GPU's) or blocks (the host's) take KILN_FOR_EACH_INDEX's
// indices.
struct IndexGrid {
    unsigned grid = 1;
    unsigned block = 1;
};

// A table, as BackendTraits is: each dialect fills one (dialects/<name>/dialect.cpp).
struct KernelDialect {
    // "gpu", "host": tells variants of different dialects apart in caches and tests.
    std::string_view name;
    // A generated kernel's head through its body's opening brace and newline; `attributes`
    // ("__launch_bounds__(256, 8) ") are a GPU kernel's, which another dialect may ignore.
    std::string (*kernel_opening)(std::string_view name, std::string_view params,
                                  std::string_view attributes);
    // What follows the body's closing brace.
    std::string (*kernel_closing)(std::string_view name);
    // `KILN_FOR_EACH_INDEX(n)`: a loop of `long long i` over this thread's indices below n.
    std::string_view for_each_index_macro;
    // The one residency rule: a wave of a grid-strided kernel (index loops, reductions) is this
    // many blocks per multiprocessor (SM, CU or CPU thread). A GPU kernel that relies on all of
    // them fitting declares it in its launch bounds.
    int resident_blocks;
    // The one grid rule of KILN_FOR_EACH_INDEX kernels: `count` (> 0) indices on a device of
    // `multiprocessors` SMs, CUs or CPU threads, at most a wave of blocks.
    IndexGrid (*index_grid)(std::int64_t count, std::int64_t multiprocessors);
    // The device headers of its own (device_prelude.hpp adds those every dialect shares).
    std::span<const DialectHeader> (*device_headers)();
    // Each family's part.
    const ElementwiseDialect& elementwise;
    const ReductionDialect& reduction;
    const ScanDialect& scan;
    const MatmulDialect& matmul;
};

// The dialect of the active backend's generated kernels; the GPU dialect when no backend is
// compiled in, so that sources can still be generated and inspected.
[[nodiscard]] const KernelDialect& active_kernel_dialect();

}  // namespace kiln::detail
