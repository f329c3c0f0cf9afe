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
