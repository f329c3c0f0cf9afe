// The host dialect's row scan: a row by one thread, a block a row; long rows in chunks across the
// threads, reduced, offset and scanned in three launches.
#include "scan.hpp"

#include "device_files.hpp"

#include "../../core/array/array_memory.hpp"
#include "../../core/backend.hpp"
#include "../../core/kernels/builtin_kernel.hpp"

#include <array>
#include <string>

namespace kiln::detail::host_dialect {

namespace {

// Long rows on the host: reduce, then scan, over chunks of a row, so that every thread gets a part
// of it. Chunks are combined as the GPU's tiles are, which also keeps float32 sums accurate (one
// run of 1e8 float32 adds stalls at 2^24).
constexpr std::int64_t host_chunk = 1 << 16;

// device/kiln/scan_chunks.cuh: KILN_CHUNK_BOUNDS(b) is block b's chunk, its row and its
// elements [begin, end) of that row; kiln_scan_chunk_sums writes each chunk's aggregate;
// kiln_scan_chunk_offsets turns each row's chunk aggregates, in place, into the exclusive
// prefixes the chunks start from; kiln_scan_chunks scans each chunk on its own and adds its prefix
// to every element (adding to the prefix element by element would stall where the prefix's
// rounding step exceeds an element).
std::string host_chunked_scan_source(ScanOperation operation, const ScanDtypes& dtypes) {
    return scan_typedefs(operation, dtypes) + "\n" +
           std::string(device_file::scan_chunks_cuh().text);
}

}  // namespace

// device/kiln/scan_rows.cuh: each block's row in order by one thread.
std::string row_scan_source(ScanOperation operation, const ScanDtypes& dtypes) {
    return scan_typedefs(operation, dtypes) + std::string(device_file::scan_rows_cuh().text);
}

namespace {

// The host's scan of long rows: three launches over chunks (host_chunked_scan_source).
void scan_chunks_on_host(ScanOperation operation, const ScanDtypes& dtypes, const void* in,
                         void* out, std::int64_t rows, std::int64_t length, StreamView stream) {
    long long chunks = (length + host_chunk - 1) / host_chunk;
    const std::int64_t blocks = rows * chunks;
    const ndarray scratch = empty_on(
        {blocks * static_cast<std::int64_t>(itemsize(dtypes.accumulator))}, DType::uint8, stream);
    const void* x = in;
    void* y = out;
    void* sums = scratch.data();
    long long row_length = length;
    long long chunk = host_chunk;
    // Three kernels of one source: the module cache compiles it once.
    static constexpr BuiltinKernel chunk_sums("kiln_scan_chunk_sums");
    static constexpr BuiltinKernel chunk_offsets("kiln_scan_chunk_offsets");
    static constexpr BuiltinKernel chunk_scans("kiln_scan_chunks");
    const auto launch = [&](const BuiltinKernel& kernel, std::int64_t grid, void** args) {
        NativeFunction function = kernel.function(
            stream, scan_variant(operation, dtypes),
            [&](const KernelDialect&) { return host_chunked_scan_source(operation, dtypes); });
        kernel.launch(function, {{static_cast<unsigned>(grid), 1, 1}, {1, 1, 1}, 0, stream}, args);
    };
    std::array<void*, 5> sum_args{&x, &sums, &row_length, &chunk, &chunks};
    launch(chunk_sums, blocks, sum_args.data());
    std::array<void*, 2> offset_args{&sums, &chunks};
    launch(chunk_offsets, rows, offset_args.data());
    std::array<void*, 6> scan_args{&x, &y, &sums, &row_length, &chunk, &chunks};
    launch(chunk_scans, blocks, scan_args.data());
}

// A block a row, or chunks of long rows.
void scan_rows(ScanOperation operation, const ScanDtypes& dtypes, const void* in, void* out,
               std::int64_t rows, std::int64_t length, StreamView stream) {
    if (length > host_chunk) {
        scan_chunks_on_host(operation, dtypes, in, out, rows, length, stream);
        return;
    }
    const void* x = in;
    void* y = out;
    long long row_length = length;
    std::array<void*, 3> args{&x, &y, &row_length};
    static constexpr BuiltinKernel kernel("kiln_scan_rows");
    NativeFunction function =
        kernel.function(stream, scan_variant(operation, dtypes),
                        [&](const KernelDialect&) { return row_scan_source(operation, dtypes); });
    kernel.launch(function, {{static_cast<unsigned>(rows), 1, 1}, {1, 1, 1}, 0, stream},
                  args.data());
}

}  // namespace

const ScanDialect scan_part{&scan_rows};

}  // namespace kiln::detail::host_dialect
