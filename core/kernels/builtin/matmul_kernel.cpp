#include "matmul_kernel.hpp"

#include "../../codegen/device_prelude.hpp"
#include "../../codegen/kernel_entry.hpp"
#include "builtin_kernels.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

namespace kiln::detail {

namespace {

constexpr unsigned tile = 64;

// Block (16, 16): thread (x, y) computes rows y + 16 i and columns x + 16 j of the tile, so
// that neighbouring threads read neighbouring shared words and write neighbouring outputs.
constexpr std::string_view matmul_body = R"(
#define KILN_TILE 64
#define KILN_STEP 16
struct alignas(16) kiln_storage {
    unsigned char bytes[16];
};
#define KILN_WORDS(n) (((n) * sizeof(kiln_acc) + 15) / 16)
extern "C" __global__ void __launch_bounds__(256)
kiln_matmul(const kiln_t* a, const kiln_t* b, kiln_t* c, int m, int n, int k, long long a_stride,
            long long b_stride, long long c_stride) {
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
            as[ar * (KILN_STEP + 1) + ac] = row < m && kk < k
                ? kiln::ufunc::cast<kiln_acc>(a[(long long)row * k + kk]) : kiln_acc(0);
            const int br = e / KILN_TILE, bc = e % KILN_TILE;
            const int kb = k0 + br, col = col0 + bc;
            bs[br * (KILN_TILE + 1) + bc] = kb < k && col < n
                ? kiln::ufunc::cast<kiln_acc>(b[(long long)kb * n + col]) : kiln_acc(0);
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
                    sum[i][j] = kiln::ufunc::add(sum[i][j], kiln::ufunc::multiply(left[i], right[j]));
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
)";

// The host's body: the grid and the parameters are the GPU kernel's. Each output sums over k in
// order, as each GPU thread does.
constexpr std::string_view host_matmul_body = R"(
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
                const kiln_acc left = kiln::ufunc::cast<kiln_acc>(at[(long long)(row0 + i) * k + kk]);
                for (int j = 0; j < cols; ++j) {
                    sum[i][j] = kiln::ufunc::add(sum[i][j],
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
)";

}  // namespace

std::string matmul_source(DType dtype, Dialect dialect) {
    const DType accumulator = dtype == DType::float16 ? DType::float32 : dtype;
    std::string source = std::string(device_prelude()) + "#include <kiln/ufunc.h>\ntypedef " +
                         std::string(c_type(dtype)) + " kiln_t;\ntypedef " +
                         std::string(c_type(accumulator)) + " kiln_acc;\n";
    if (dialect == Dialect::host) {
        return source +
               kernel_opening(dialect, "kiln_matmul",
                              "const kiln_t* a, const kiln_t* b, kiln_t* c, int m, int n, int k, "
                              "long long a_stride, long long b_stride, long long c_stride") +
               std::string(host_matmul_body) + kernel_closing(dialect, "kiln_matmul");
    }
    return source + std::string(matmul_body);
}

void tiled_gemm(const GemmCall& call, StreamView stream) {
    if (call.m == 0 || call.n == 0) {
        return;
    }
    NativeFunction function =
        builtin_function(stream, "kiln_matmul", std::string(name(call.dtype)),
                         [&] { return matmul_source(call.dtype, active_dialect()); });
    const auto bytes = static_cast<long long>(itemsize(call.dtype));
    // The grid's third dimension holds at most 65535 batches a launch.
    constexpr int most_batches = 65535;
    for (int first = 0; first < call.batch; first += most_batches) {
        const void* a = static_cast<const char*>(call.a) + first * call.a_stride * bytes;
        const void* b = static_cast<const char*>(call.b) + first * call.b_stride * bytes;
        void* c = static_cast<char*>(call.c) + first * call.c_stride * bytes;
        int m = call.m;
        int n = call.n;
        int k = call.k;
        long long a_stride = call.a_stride;
        long long b_stride = call.b_stride;
        long long c_stride = call.c_stride;
        std::array<void*, 9> args{&a, &b, &c, &m, &n, &k, &a_stride, &b_stride, &c_stride};
        const Dim3 grid{(static_cast<unsigned>(n) + tile - 1) / tile,
                        (static_cast<unsigned>(m) + tile - 1) / tile,
                        static_cast<unsigned>(std::min(most_batches, call.batch - first))};
        backend().launch(function, {grid, {16, 16, 1}, 0, stream}, args.data());
    }
}

}  // namespace kiln::detail
