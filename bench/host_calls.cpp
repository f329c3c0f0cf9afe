// kiln-host-calls PATH [CALLS]: CALLS calls (default 3000) of one launch path on two 1000-element
// float32 arrays, after 200 of warm-up, all inside counted_calls, the function whose instructions
// bench/host_instructions.sh counts under callgrind. PATH is raw, elementwise, reduction, fused,
// routine (kiln::add, read at once; eager under KILN_LAZY=0) or deferred (x + y, never read).
#include <kiln/kiln.hpp>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>

// Not inlined and not mangled: callgrind's --toggle-collect names it.
extern "C" __attribute__((noinline)) void counted_calls(const std::function<void()>* call,
                                                        int calls) {
    for (int i = 0; i < calls; ++i) {
        (*call)();
    }
}

int main(int argc, char** argv) {
    using namespace kiln;
    const std::string path = argc > 1 ? argv[1] : "elementwise";
    const int calls = argc > 2 ? std::atoi(argv[2]) : 3000;
    const ndarray x = arange(0, 1000, 1, float32);
    const ndarray y = arange(0, 1000, 1, float32);
    const ElementwiseKernel add_kernel("T x, T y", "T z", "z = x + y", "host_calls_add");
    const ReductionKernel sum_kernel("T x", "T y", "x", "a + b", "y = a", "0", "host_calls_sum");
    const RawKernel raw_add(R"(extern "C" __global__ void host_calls_raw_add(
        const float* x, const float* y, float* z, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = x[i] + y[i];
})",
                            "host_calls_raw_add");
    const auto fused_add = fuse("host_calls_fused_add", [](auto a, auto b) { return a + b; });
    ndarray result = empty({1000}, float32);
    const std::map<std::string, std::function<void()>> paths{
        {"raw",
         [&] {
             raw_add(Dim3{4}, Dim3{256}, {x, y, result, 1000});
         }},
        {"elementwise",
         [&] {
             result = add_kernel({x, y});
         }},
        {"reduction", [&] { result = sum_kernel({x}); }},
        {"fused", [&] { result = fused_add(x, y); }},
        {"routine",
         [&] {
             result = add(x, y);
             (void)result.data();
         }},
        {"deferred", [&] { result = x + y; }},
    };
    const auto chosen = paths.find(path);
    if (chosen == paths.end() || calls <= 0) {
        std::fprintf(stderr,
                     "usage: kiln-host-calls raw|elementwise|reduction|fused|routine|deferred "
                     "[CALLS > 0]\n");
        return 2;
    }
    for (int i = 0; i < 200; ++i) {  // compiles, records the call, fills the pool
        chosen->second();
    }
    Device::current().synchronize();
    counted_calls(&chosen->second, calls);
    Device::current().synchronize();
    return 0;
}
