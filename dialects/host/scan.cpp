// The host dialect's row scan: a row by one thread, a block a row; long rows in chunks across the
// threads, reduced, offset and scanned in three launches.
#include "scan.hpp"

#include "dialect.hpp"

#include "../../core/array/array_memory.hpp"
#include "../../core/backend.hpp"
#include "../../core/kernels/builtin_kernel.hpp"

#include <array>
#include <string>
#include <string_view>

namespace kiln::detail::host_dialect {

namespace {

// The host's row scan: each block's row in order by one thread.
constexpr std::string_view host_row_scan_body = R"(
    for (unsigned long long row = _kiln_grid.first; row < _kiln_grid.end; ++row) {
        const kiln_in* const from = x + (long long)row * length;
        kiln_out* const to = y + (long long)row * length;
        kiln_acc run = KILN_IDENTITY;
        for (long long j = 0; j < length; ++j) {
            run = kiln_op(run, kiln::ufunc::cast<kiln_acc>(from[j]));
            to[j] = kiln::ufunc::cast<kiln_out>(run);
        }
    }
}
)";

// Long rows on the host: reduce, then scan, over chunks of a row, so that every thread gets a part
// of it. Chunks are combined as the GPU's tiles are, which also keeps float32 sums accurate (one
// run of 1e8 float32 adds stalls at 2^24).
constexpr std::int64_t host_chunk = 1 << 16;

// Block b's chunk: its row, and its elements [begin, end) of that row.
constexpr std::string_view host_chunk_bounds = R"(
#define KILN_CHUNK_BOUNDS(b)                                                    \
    const long long row = (long long)(b) / chunks;                              \
    const long long begin = (long long)(b) % chunks * chunk;                    \
    const long long end = begin + chunk < length ? begin + chunk : length
)";

// Each chunk's aggregate.
constexpr std::string_view host_chunk_sums_body = R"(
    for (unsigned long long b = _kiln_grid.first; b < _kiln_grid.end; ++b) {
        KILN_CHUNK_BOUNDS(b);
        const kiln_in* const from = x + row * length;
        kiln_acc run = KILN_IDENTITY;
        for (long long j = begin; j < end; ++j) {
            run = kiln_op(run, kiln::ufunc::cast<kiln_acc>(from[j]));
        }
        sums[b] = run;
    }
}
)";

// Each row's chunk aggregates, in place, become the exclusive prefixes the chunks start from.
constexpr std::string_view host_chunk_offsets_body = R"(
    for (unsigned long long row = _kiln_grid.first; row < _kiln_grid.end; ++row) {
        kiln_acc run = KILN_IDENTITY;
        for (long long c = 0; c < chunks; ++c) {
            const kiln_acc sum = sums[(long long)row * chunks + c];
            sums[(long long)row * chunks + c] = run;
            run = kiln_op(run, sum);
        }
    }
}
)";

// Each chunk scanned on its own, its prefix added to every element: adding to the prefix element
// by element would stall where the prefix's rounding step exceeds an element.
constexpr std::string_view host_chunk_scan_body = R"(
    for (unsigned long long b = _kiln_grid.first; b < _kiln_grid.end; ++b) {
        KILN_CHUNK_BOUNDS(b);
        const kiln_in* const from = x + row * length;
        kiln_out* const to = y + row * length;
        const kiln_acc prefix = sums[b];
        kiln_acc run = KILN_IDENTITY;
        for (long long j = begin; j < end; ++j) {
            run = kiln_op(run, kiln::ufunc::cast<kiln_acc>(from[j]));
            to[j] = kiln::ufunc::cast<kiln_out>(kiln_op(prefix, run));
        }
    }
}
)";

std::string host_chunked_scan_source(ScanOperation operation, const ScanDtypes& dtypes) {
    constexpr std::string_view shape = "long long length, long long chunk, long long chunks";
    const std::string sums_params = "const kiln_in* x, kiln_acc* sums, " + std::string(shape);
    const std::string scan_params =
        "const kiln_in* x, kiln_out* y, const kiln_acc* sums, " + std::string(shape);
    return scan_typedefs(operation, dtypes) + std::string(host_chunk_bounds) +
           dialect().kernel_opening("kiln_scan_chunk_sums", sums_params, {}) +
           std::string(host_chunk_sums_body) + dialect().kernel_closing("kiln_scan_chunk_sums") +
           dialect().kernel_opening("kiln_scan_chunk_offsets", "kiln_acc* sums, long long chunks",
                                    {}) +
           std::string(host_chunk_offsets_body) +
           dialect().kernel_closing("kiln_scan_chunk_offsets") +
           dialect().kernel_opening("kiln_scan_chunks", scan_params, {}) +
           std::string(host_chunk_scan_body) + dialect().kernel_closing("kiln_scan_chunks");
}

}  // namespace

std::string row_scan_source(ScanOperation operation, const ScanDtypes& dtypes) {
    return scan_typedefs(operation, dtypes) +
           dialect().kernel_opening("kiln_scan_rows",
                                    "const kiln_in* x, kiln_out* y, long long length", {}) +
           std::string(host_row_scan_body) + dialect().kernel_closing("kiln_scan_rows");
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
