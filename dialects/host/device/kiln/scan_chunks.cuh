#define KILN_CHUNK_BOUNDS(b)                                 \
    const long long row = (long long)(b) / chunks;           \
    const long long begin = (long long)(b) % chunks * chunk; \
    const long long end = begin + chunk < length ? begin + chunk : length
static void kiln_scan_chunk_sums_kiln_body(const kiln_host_grid& _kiln_grid, const kiln_in* x,
                                           kiln_acc* sums, long long length, long long chunk,
                                           long long chunks) {
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
KILN_HOST_KERNEL(kiln_scan_chunk_sums, kiln_scan_chunk_sums_kiln_body)
static void kiln_scan_chunk_offsets_kiln_body(const kiln_host_grid& _kiln_grid, kiln_acc* sums,
                                              long long chunks) {
    for (unsigned long long row = _kiln_grid.first; row < _kiln_grid.end; ++row) {
        kiln_acc run = KILN_IDENTITY;
        for (long long c = 0; c < chunks; ++c) {
            const kiln_acc sum = sums[(long long)row * chunks + c];
            sums[(long long)row * chunks + c] = run;
            run = kiln_op(run, sum);
        }
    }
}
KILN_HOST_KERNEL(kiln_scan_chunk_offsets, kiln_scan_chunk_offsets_kiln_body)
static void kiln_scan_chunks_kiln_body(const kiln_host_grid& _kiln_grid, const kiln_in* x,
                                       kiln_out* y, const kiln_acc* sums, long long length,
                                       long long chunk, long long chunks) {
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
KILN_HOST_KERNEL(kiln_scan_chunks, kiln_scan_chunks_kiln_body)
