__device__ inline void kiln_scan_column(const kiln_in* x, kiln_out* y, long long length,
                                        long long inner, long long i) {
    const long long start = i / inner * length * inner + i % inner;
    kiln_acc run = KILN_IDENTITY;
    for (long long j = 0; j < length; ++j) {
        run = kiln_op(run, kiln::ufunc::cast<kiln_acc>(x[start + j * inner]));
        y[start + j * inner] = kiln::ufunc::cast<kiln_out>(run);
    }
}
