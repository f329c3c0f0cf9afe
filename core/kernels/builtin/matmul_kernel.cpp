#include "matmul_kernel.hpp"

#include "../../codegen/device_prelude.hpp"
#include "../builtin_kernel.hpp"
#include "matmul_dialect.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace kiln::detail {

namespace {

constexpr unsigned tile = 64;

}  // namespace

std::string matmul_source(DType dtype, const KernelDialect& dialect) {
    const DType accumulator = dtype == DType::float16 ? DType::float32 : dtype;
    std::string source = std::string(device_prelude()) + "#include <kiln/ufunc.h>\ntypedef " +
                         std::string(c_type(dtype)) + " kiln_t;\ntypedef " +
                         std::string(c_type(accumulator)) + " kiln_acc;\n";
    return source + dialect.matmul.kernel();
}

void tiled_gemm(const GemmCall& call, StreamView stream) {
    if (call.m == 0 || call.n == 0) {
        return;
    }
    static constexpr BuiltinKernel kernel("kiln_matmul");
    NativeFunction function = kernel.function(
        stream, std::string(name(call.dtype)),
        [&](const KernelDialect& dialect) { return matmul_source(call.dtype, dialect); });
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
        kernel.launch(function, {grid, {16, 16, 1}, 0, stream}, args.data());
    }
}

}  // namespace kiln::detail
