#define KILN_TILE 64
#define KILN_STEP 16
struct alignas(16) kiln_storage {
    unsigned char bytes[16];
};
#define KILN_WORDS(n) (((n) * sizeof(kiln_acc) + 15) / 16)
extern "C" __global__ void __launch_bounds__(256)
    kiln_matmul(const kiln_t* a, const kiln_t* b, kiln_t* c, int m, int n, int k,
                long long a_stride, long long b_stride, long long c_stride) {
    __shared__ kiln_storage a_words[KILN_WORDS(KILN_TILE * (KILN_STEP + 1))];
    __shared__ kiln_storage b_words[KILN_WORDS(KILN_STEP * (KILN_TILE + 1))];
    kiln_acc* const as = reinterpret_cast<kiln_acc*>(a_words);  // [KILN_TILE][KILN_STEP + 1]
    kiln_acc* const bs = reinterpret_cast<kiln_acc*>(b_words);  // [KILN_STEP][KILN_TILE + 1]
    a += blockIdx.z * a_stride;
    b += blockIdx.z * b_stride;
    c += blockIdx.z * c_stride;
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int thread = ty * 16 + tx;
    const int row0 = blockIdx.y * KILN_TILE;
    const int col0 = blockIdx.x * KILN_TILE;
    kiln_acc sum[4][4];
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
            sum[i][j] = kiln_acc(0);
        }
    }
    for (int k0 = 0; k0 < k; k0 += KILN_STEP) {
        // 1024 elements of A (64 rows x 16) and of B (16 rows x 64), four per thread.
        for (int e = thread; e < KILN_TILE * KILN_STEP; e += 256) {
            const int ar = e / KILN_STEP, ac = e % KILN_STEP;
            const int row = row0 + ar, kk = k0 + ac;
            as[ar * (KILN_STEP + 1) + ac] =
                row < m && kk < k ? kiln::ufunc::cast<kiln_acc>(a[(long long)row * k + kk])
                                  : kiln_acc(0);
            const int br = e / KILN_TILE, bc = e % KILN_TILE;
            const int kb = k0 + br, col = col0 + bc;
            bs[br * (KILN_TILE + 1) + bc] =
                kb < k && col < n ? kiln::ufunc::cast<kiln_acc>(b[(long long)kb * n + col])
                                  : kiln_acc(0);
        }
        __syncthreads();
        for (int kk = 0; kk < KILN_STEP; ++kk) {
            kiln_acc left[4], right[4];
            for (int i = 0; i < 4; ++i) {
                left[i] = as[(ty + 16 * i) * (KILN_STEP + 1) + kk];
                right[i] = bs[kk * (KILN_TILE + 1) + tx + 16 * i];
            }
            for (int i = 0; i < 4; ++i) {
                for (int j = 0; j < 4; ++j) {
                    sum[i][j] =
                        kiln::ufunc::add(sum[i][j], kiln::ufunc::multiply(left[i], right[j]));
                }
            }
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
            const int row = row0 + ty + 16 * i, col = col0 + tx + 16 * j;
            if (row < m && col < n) {
                c[(long long)row * n + col] = kiln::ufunc::cast<kiln_t>(sum[i][j]);
            }
        }
    }
}
