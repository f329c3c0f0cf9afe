// The GPU dialect's row scan in one pass: each block scans a tile and finds its prefix by looking
// back at the tiles before it (decoupled look-back), so the data is read once and written once, as
// a copy is.
#include "scan.hpp"

#include "device_files.hpp"

#include "../../core/array/array_memory.hpp"
#include "../../core/backend.hpp"
#include "../../core/kernels/builtin_kernel.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

namespace kiln::detail::gpu_dialect {

namespace {

constexpr int scan_block = 256;

// Accumulators of 4 bytes or fewer travel with their tile's state in one 64-bit word.
bool packed(const ScanDtypes& dtypes) {
    return itemsize(dtypes.accumulator) <= 4;
}

// Elements per thread: a tile of 32 KiB, enough work per block to hide the look-back (on an
// H100, 16 KiB tiles ran at 49% of copy bandwidth, 32 KiB at 76%, 40 KiB at 74%).
int items_per_thread(DType accumulator) {
    return std::clamp(128 / static_cast<int>(itemsize(accumulator)), 8, 32);
}

}  // namespace

// The kernel, device/kiln/scan_rows.cuh: each tile publishes its aggregate (state 1), looks back
// over earlier tiles of its row adding aggregates until one has published its inclusive prefix
// (state 2), then publishes its own.
std::string row_scan_source(ScanOperation operation, const ScanDtypes& dtypes) {
    return scan_typedefs(operation, dtypes) + "#define KILN_BLOCK " + std::to_string(scan_block) +
           "\n#define KILN_ITEMS " + std::to_string(items_per_thread(dtypes.accumulator)) +
           "\n#define KILN_PACKED " + (packed(dtypes) ? "1" : "0") + "\n\n" +
           std::string(device_file::scan_rows_cuh().text);
}

namespace {

void scan_rows(ScanOperation operation, const ScanDtypes& dtypes, const void* in, void* out,
               std::int64_t rows, std::int64_t length, StreamView stream) {
    const std::int64_t tile = std::int64_t{scan_block} * items_per_thread(dtypes.accumulator);
    long long tiles_per_row = (length + tile - 1) / tile;
    const std::int64_t tiles = rows * tiles_per_row;
    // Per call, zeroed: each tile's state and values (kiln_publish), then the tile counter.
    const auto value_bytes = static_cast<std::int64_t>(itemsize(dtypes.accumulator));
    const std::int64_t status_bytes =
        packed(dtypes) ? 8 * tiles : (4 * tiles + 15) / 16 * 16 + 2 * tiles * value_bytes;
    const ndarray status = empty_on({status_bytes + 16}, DType::uint8, stream);
    backend().fill_bytes_async(status.data(), 0, status.nbytes(), stream);
    const void* x = in;
    void* y = out;
    long long row_length = length;
    long long tile_count = tiles;
    void* status_words = status.data();
    void* counter = static_cast<char*>(status.data()) + status_bytes;
    std::array<void*, 7> args{&x,      &y, &row_length, &tiles_per_row, &tile_count, &status_words,
                              &counter};
    static constexpr BuiltinKernel kernel("kiln_scan_rows");
    NativeFunction function =
        kernel.function(stream, scan_variant(operation, dtypes),
                        [&](const KernelDialect&) { return row_scan_source(operation, dtypes); });
    kernel.launch(function,
                  {{static_cast<unsigned>(tiles), 1, 1},
                   {static_cast<unsigned>(scan_block), 1, 1},
                   0,
                   stream},
                  args.data());
}

}  // namespace

const ScanDialect scan_part{&scan_rows};

}  // namespace kiln::detail::gpu_dialect
