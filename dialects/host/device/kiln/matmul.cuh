static void kiln_matmul_kiln_body(const kiln_host_grid& _kiln_grid, const kiln_t* a,
                                  const kiln_t* b, kiln_t* c, int m, int n, int k,
                                  long long a_stride, long long b_stride, long long c_stride) {
#define KILN_TILE 64
    for (unsigned long long block = _kiln_grid.first; block < _kiln_grid.end; ++block) {
        const unsigned long long xy = (unsigned long long)_kiln_grid.grid.x * _kiln_grid.grid.y;
        const long long z = (long long)(block / xy);
        const int row0 = (int)(block % xy / _kiln_grid.grid.x) * KILN_TILE;
        const int col0 = (int)(block % _kiln_grid.grid.x) * KILN_TILE;
        const kiln_t* const at = a + z * a_stride;
        const kiln_t* const bt = b + z * b_stride;
        kiln_t* const ct = c + z * c_stride;
        const int rows = m - row0 < KILN_TILE ? m - row0 : KILN_TILE;
        const int cols = n - col0 < KILN_TILE ? n - col0 : KILN_TILE;
        kiln_acc sum[KILN_TILE][KILN_TILE];
        for (int i = 0; i < rows; ++i) {
            for (int j = 0; j < cols; ++j) {
                sum[i][j] = kiln_acc(0);
            }
        }
        for (int kk = 0; kk < k; ++kk) {
            const kiln_t* const b_row = bt + (long long)kk * n + col0;
            for (int i = 0; i < rows; ++i) {
                const kiln_acc left =
                    kiln::ufunc::cast<kiln_acc>(at[(long long)(row0 + i) * k + kk]);
                for (int j = 0; j < cols; ++j) {
                    sum[i][j] = kiln::ufunc::add(
                        sum[i][j],
                        kiln::ufunc::multiply(left, kiln::ufunc::cast<kiln_acc>(b_row[j])));
                }
            }
        }
        for (int i = 0; i < rows; ++i) {
            for (int j = 0; j < cols; ++j) {
                ct[(long long)(row0 + i) * n + col0 + j] = kiln::ufunc::cast<kiln_t>(sum[i][j]);
            }
        }
    }
}
KILN_HOST_KERNEL(kiln_matmul, kiln_matmul_kiln_body)
