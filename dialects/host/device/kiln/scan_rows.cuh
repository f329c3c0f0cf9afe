static void kiln_scan_rows_kiln_body(const kiln_host_grid& _kiln_grid, const kiln_in* x,
                                     kiln_out* y, long long length) {
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
KILN_HOST_KERNEL(kiln_scan_rows, kiln_scan_rows_kiln_body)
