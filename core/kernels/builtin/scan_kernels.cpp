#include "scan_kernels.hpp"

#include "../../array/array_memory.hpp"
#include "../../backend.hpp"
#include "../../codegen/device_prelude.hpp"
#include "../../codegen/kernel_entry.hpp"
#include "builtin_kernels.hpp"

#include <kiln/device.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

namespace kiln::detail {

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

std::string typedefs(ScanOperation operation, const ScanDtypes& dtypes) {
    const bool sum = operation == ScanOperation::sum;
    const std::size_t word = itemsize(dtypes.accumulator) % 4 == 0   ? 4
                             : itemsize(dtypes.accumulator) % 2 == 0 ? 2
                                                                     : 1;
    return std::string(device_prelude()) +
           "#include <kiln/ufunc.h>\n"
           "typedef " +
           std::string(c_type(dtypes.in)) + " kiln_in;\ntypedef " +
           std::string(c_type(dtypes.accumulator)) + " kiln_acc;\ntypedef " +
           std::string(c_type(dtypes.out)) + " kiln_out;\ntypedef " +
           (word == 4   ? "unsigned int"
            : word == 2 ? "unsigned short"
                        : "unsigned char") +
           " kiln_word;\n"
           "#define KILN_IDENTITY kiln_acc(" +
           (sum ? "0" : "1") +
           ")\n"
           "__device__ inline kiln_acc kiln_op(kiln_acc a, kiln_acc b) {\n"
           "    return kiln::ufunc::" +
           (sum ? "add" : "multiply") + "(a, b);\n}\n";
}

// Each tile publishes its aggregate (state 1), looks back over earlier tiles of its row adding
// aggregates until one has published its inclusive prefix (state 2), then publishes its own.
constexpr std::string_view row_scan_body = R"(
#define KILN_TILE (KILN_BLOCK * KILN_ITEMS)
#define KILN_LOOK_BACK 32
#define KILN_PAD(k) ((k) + (k) / 32)
// Shared memory as raw 16-byte words: kiln_acc may have constructors, which __shared__ forbids.
struct alignas(16) kiln_storage {
    unsigned char bytes[16];
};
#define KILN_WORDS(n) (((n) * sizeof(kiln_acc) + 15) / 16)
#if KILN_PACKED
// A tile's state and value share one 64-bit word, written and read in one access.
__device__ inline void kiln_publish(void* status, long long, long long tile, int state,
                                    kiln_acc value) {
    unsigned int bits = 0;
    *reinterpret_cast<kiln_acc*>(&bits) = value;
    reinterpret_cast<volatile unsigned long long*>(status)[tile] =
        (unsigned long long)bits << 32 | (unsigned int)state;
}
__device__ inline int kiln_peek(void* status, long long, long long tile, kiln_acc& value) {
    unsigned long long word;
    do {
        word = reinterpret_cast<volatile unsigned long long*>(status)[tile];
    } while ((word & 3) == 0);
    const unsigned int bits = (unsigned int)(word >> 32);
    value = *reinterpret_cast<const kiln_acc*>(&bits);
    return (int)(word & 3);
}
#else
// Wider values: a flag per tile, then the aggregates, then the inclusive prefixes, each value
// written before its flag with a fence between, and read around the L1 cache after it.
__device__ inline kiln_acc* kiln_values(void* status, long long tiles, int state) {
    char* const flags_end = (char*)status + (tiles * sizeof(int) + 15) / 16 * 16;
    return reinterpret_cast<kiln_acc*>(flags_end) + (state == 2 ? tiles : 0);
}
__device__ inline void kiln_publish(void* status, long long tiles, long long tile, int state,
                                    kiln_acc value) {
    kiln_values(status, tiles, state)[tile] = value;
    __threadfence();
    reinterpret_cast<volatile int*>(status)[tile] = state;
}
__device__ inline int kiln_peek(void* status, long long tiles, long long tile, kiln_acc& value) {
    int state;
    do {
        state = reinterpret_cast<volatile int*>(status)[tile];
    } while (state == 0);
    __threadfence();
    const volatile kiln_word* from =
        reinterpret_cast<const volatile kiln_word*>(kiln_values(status, tiles, state) + tile);
    kiln_word* to = reinterpret_cast<kiln_word*>(&value);
    for (int w = 0; w < (int)(sizeof(kiln_acc) / sizeof(kiln_word)); ++w) {
        to[w] = from[w];
    }
    return state;
}
#endif
extern "C" __global__ void __launch_bounds__(KILN_BLOCK)
kiln_scan_rows(const kiln_in* x, kiln_out* y, long long length, long long tiles_per_row,
               long long tiles, void* status, unsigned int* counter) {
    __shared__ kiln_storage item_words[KILN_WORDS(KILN_PAD(KILN_TILE))];
    __shared__ kiln_storage sum_words[KILN_WORDS(KILN_BLOCK)];
    __shared__ kiln_storage prefix_words[KILN_WORDS(1)];
    __shared__ kiln_storage window_words[KILN_WORDS(KILN_LOOK_BACK)];
    __shared__ int window_states[KILN_LOOK_BACK];
    __shared__ int window_done;
    __shared__ unsigned int tile_slot;
    kiln_acc* const items = reinterpret_cast<kiln_acc*>(item_words);
    kiln_acc* const sums = reinterpret_cast<kiln_acc*>(sum_words);
    kiln_acc* const prefix = reinterpret_cast<kiln_acc*>(prefix_words);
    kiln_acc* const window_values = reinterpret_cast<kiln_acc*>(window_words);
    const int t = threadIdx.x;
    // Tiles are numbered in the order blocks start, so every tile looked back at has started.
    if (t == 0) {
        tile_slot = atomicAdd(counter, 1u);
    }
    __syncthreads();
    const long long tile = tile_slot;
    const long long row = tile / tiles_per_row;
    const long long first = tile % tiles_per_row * KILN_TILE;
    const long long count = length - first < KILN_TILE ? length - first : KILN_TILE;
    const kiln_in* in = x + row * length + first;
    kiln_out* out = y + row * length + first;

    for (int i = 0; i < KILN_ITEMS; ++i) {
        const int k = t + i * KILN_BLOCK;
        items[KILN_PAD(k)] = k < count ? kiln::ufunc::cast<kiln_acc>(in[k]) : KILN_IDENTITY;
    }
    __syncthreads();
    kiln_acc run = items[KILN_PAD(t * KILN_ITEMS)];
    for (int i = 1; i < KILN_ITEMS; ++i) {
        const int k = KILN_PAD(t * KILN_ITEMS + i);
        run = kiln_op(run, items[k]);
        items[k] = run;
    }
    sums[t] = run;
    __syncthreads();
    for (int offset = 1; offset < KILN_BLOCK; offset <<= 1) {
        const kiln_acc value = t >= offset ? kiln_op(sums[t - offset], sums[t]) : sums[t];
        __syncthreads();
        sums[t] = value;
        __syncthreads();
    }

    const kiln_acc aggregate = sums[KILN_BLOCK - 1];
    if (t == 0) {
        *prefix = KILN_IDENTITY;
        if (first != 0) {
            kiln_publish(status, tiles, tile, 1, aggregate);
        }
    }
    // The look-back reads a window of 32 earlier tiles at once, nearest first, and adds what they
    // published up to the nearest one with an inclusive prefix.
    if (first != 0) {
        const long long row_start = tile - tile % tiles_per_row;
        for (long long window = tile - 1;; window -= KILN_LOOK_BACK) {
            if (t < KILN_LOOK_BACK) {
                const long long p = window - t;
                int state = 2;  // before the row's first tile: nothing to add
                kiln_acc value = KILN_IDENTITY;
                if (p >= row_start) {
                    state = kiln_peek(status, tiles, p, value);
                }
                window_states[t] = state;
                window_values[t] = value;
            }
            __syncthreads();
            if (t == 0) {
                kiln_acc before = *prefix;
                int found = 0;
                for (int lane = 0; lane < KILN_LOOK_BACK && !found; ++lane) {
                    before = kiln_op(window_values[lane], before);
                    found = window_states[lane] == 2;
                }
                *prefix = before;
                window_done = found;
            }
            __syncthreads();
            if (window_done) {
                break;
            }
        }
    }
    if (t == 0) {
        kiln_publish(status, tiles, tile, 2, kiln_op(*prefix, aggregate));
    }
    __syncthreads();
    const kiln_acc base = t == 0 ? *prefix : kiln_op(*prefix, sums[t - 1]);
    for (int i = 0; i < KILN_ITEMS; ++i) {
        const int k = KILN_PAD(t * KILN_ITEMS + i);
        items[k] = kiln_op(base, items[k]);
    }
    __syncthreads();
    for (int i = 0; i < KILN_ITEMS; ++i) {
        const int k = t + i * KILN_BLOCK;
        if (k < count) {
            out[k] = kiln::ufunc::cast<kiln_out>(items[KILN_PAD(k)]);
        }
    }
}
)";

// Column i of the (outer, length, inner) array scanned down its length.
constexpr std::string_view column_scan_body = R"(
    KILN_FOR_EACH_INDEX(outer * inner) {
        const long long start = i / inner * length * inner + i % inner;
        kiln_acc run = KILN_IDENTITY;
        for (long long j = 0; j < length; ++j) {
            run = kiln_op(run, kiln::ufunc::cast<kiln_acc>(x[start + j * inner]));
            y[start + j * inner] = kiln::ufunc::cast<kiln_out>(run);
        }
    }
}
)";

constexpr std::string_view column_scan_params =
    "const kiln_in* x, kiln_out* y, long long outer, long long length, long long inner";

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
    return typedefs(operation, dtypes) + std::string(host_chunk_bounds) +
           kernel_opening(Dialect::host, "kiln_scan_chunk_sums", sums_params) +
           std::string(host_chunk_sums_body) +
           kernel_closing(Dialect::host, "kiln_scan_chunk_sums") +
           kernel_opening(Dialect::host, "kiln_scan_chunk_offsets",
                          "kiln_acc* sums, long long chunks") +
           std::string(host_chunk_offsets_body) +
           kernel_closing(Dialect::host, "kiln_scan_chunk_offsets") +
           kernel_opening(Dialect::host, "kiln_scan_chunks", scan_params) +
           std::string(host_chunk_scan_body) + kernel_closing(Dialect::host, "kiln_scan_chunks");
}

std::string variant(ScanOperation operation, const ScanDtypes& dtypes) {
    return std::string(operation == ScanOperation::sum ? "sum " : "product ") +
           std::string(name(dtypes.in)) + ' ' + std::string(name(dtypes.accumulator)) + ' ' +
           std::string(name(dtypes.out));
}

}  // namespace

std::string row_scan_source(ScanOperation operation, const ScanDtypes& dtypes, Dialect dialect) {
    if (dialect == Dialect::host) {
        return typedefs(operation, dtypes) +
               kernel_opening(dialect, "kiln_scan_rows",
                              "const kiln_in* x, kiln_out* y, long long length") +
               std::string(host_row_scan_body) + kernel_closing(dialect, "kiln_scan_rows");
    }
    return typedefs(operation, dtypes) + "#define KILN_BLOCK " + std::to_string(scan_block) +
           "\n#define KILN_ITEMS " + std::to_string(items_per_thread(dtypes.accumulator)) +
           "\n#define KILN_PACKED " + (packed(dtypes) ? "1" : "0") + "\n" +
           std::string(row_scan_body);
}

std::string column_scan_source(ScanOperation operation, const ScanDtypes& dtypes, Dialect dialect) {
    return typedefs(operation, dtypes) + std::string(for_each_index_macro(dialect)) +
           kernel_opening(dialect, "kiln_scan_columns", column_scan_params) +
           std::string(column_scan_body) + kernel_closing(dialect, "kiln_scan_columns");
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
    const auto function = [&](const char* name) {
        return builtin_function(stream, name, variant(operation, dtypes),
                                [&] { return host_chunked_scan_source(operation, dtypes); });
    };
    const auto launch = [&](const char* name, std::int64_t grid, void** args) {
        backend().launch(function(name),
                         {{static_cast<unsigned>(grid), 1, 1}, {1, 1, 1}, 0, stream}, args);
    };
    std::array<void*, 5> sum_args{&x, &sums, &row_length, &chunk, &chunks};
    launch("kiln_scan_chunk_sums", blocks, sum_args.data());
    std::array<void*, 2> offset_args{&sums, &chunks};
    launch("kiln_scan_chunk_offsets", rows, offset_args.data());
    std::array<void*, 6> scan_args{&x, &y, &sums, &row_length, &chunk, &chunks};
    launch("kiln_scan_chunks", blocks, scan_args.data());
}

// The host's row scan: a block a row, or chunks of long rows.
void scan_rows_on_host(ScanOperation operation, const ScanDtypes& dtypes, const void* in, void* out,
                       std::int64_t rows, std::int64_t length, StreamView stream) {
    if (length > host_chunk) {
        scan_chunks_on_host(operation, dtypes, in, out, rows, length, stream);
        return;
    }
    const void* x = in;
    void* y = out;
    long long row_length = length;
    std::array<void*, 3> args{&x, &y, &row_length};
    NativeFunction function =
        builtin_function(stream, "kiln_scan_rows", variant(operation, dtypes),
                         [&] { return row_scan_source(operation, dtypes, Dialect::host); });
    backend().launch(function, {{static_cast<unsigned>(rows), 1, 1}, {1, 1, 1}, 0, stream},
                     args.data());
}

}  // namespace

void scan_rows(ScanOperation operation, const ScanDtypes& dtypes, const void* in, void* out,
               std::int64_t rows, std::int64_t length, StreamView stream) {
    if (rows == 0 || length == 0) {
        return;
    }
    if (active_dialect() == Dialect::host) {
        scan_rows_on_host(operation, dtypes, in, out, rows, length, stream);
        return;
    }
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
    NativeFunction function = builtin_function(stream, "kiln_scan_rows", variant(operation, dtypes),
                                               [&] { return row_scan_source(operation, dtypes); });
    backend().launch(function,
                     {{static_cast<unsigned>(tiles), 1, 1},
                      {static_cast<unsigned>(scan_block), 1, 1},
                      0,
                      stream},
                     args.data());
}

void scan_columns(ScanOperation operation, const ScanDtypes& dtypes, const void* in, void* out,
                  std::int64_t outer, std::int64_t length, std::int64_t inner, StreamView stream) {
    long long columns = outer * inner;
    if (columns == 0 || length == 0) {
        return;
    }
    const void* x = in;
    void* y = out;
    long long outer_count = outer;
    long long column_length = length;
    long long inner_count = inner;
    std::array<void*, 5> args{&x, &y, &outer_count, &column_length, &inner_count};
    NativeFunction function =
        builtin_function(stream, "kiln_scan_columns", variant(operation, dtypes),
                         [&] { return column_scan_source(operation, dtypes, active_dialect()); });
    backend().launch(function, for_each_index_launch(columns, stream), args.data());
}

}  // namespace kiln::detail
