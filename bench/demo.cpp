// kiln-demo: compiles an elementwise squared difference at run time on the best backend found,
// runs it on the GPU (or, on the host backend, on this machine's CPU) and prints the result.
// Without a device it still compiles the kernel for the backend's CI target and says plainly that
// nothing could run; without the backend's vendor libraries it says which are missing.
//
// It drives the compile -> load -> launch pipeline directly; the ElementwiseKernel class that
// generates such kernels from CuPy-style specs builds on the same pipeline.
#include "core/backend.hpp"
#include "core/backend_traits.hpp"
#include "core/compile/compile_cache.hpp"

#include <kiln/kiln.hpp>

#include <cstdlib>
#include <iostream>
#include <vector>

namespace {

constexpr const char* source = R"(
extern "C" __global__ void squared_diff(const float* x, float y, float* z, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float d = x[i] - y;
        z[i] = d * d;
    }
}
)";

// The same kernel in the host backend's dialect: each call runs its blocks' threads in turn.
constexpr const char* host_source = R"(
static void squared_diff_body(const kiln_host_grid& grid, const float* x, float y, float* z,
                              int n) {
    for (unsigned long long block = grid.first; block < grid.end; ++block) {
        for (unsigned thread = 0; thread < grid.block.x; ++thread) {
            const long long i = (long long)block * grid.block.x + thread;
            if (i < n) {
                float d = x[i] - y;
                z[i] = d * d;
            }
        }
    }
}
KILN_HOST_KERNEL(squared_diff, squared_diff_body)
)";

const char* kernel_source() {
    return kiln::active_backend() == kiln::BackendKind::host ? host_source : source;
}

int compile_only() {
    std::cout << "no device: " << kiln::no_device_reason() << '\n';
    auto& backend = kiln::detail::backend();
    if (!kiln::detail::libraries_loaded(backend)) {
        std::cout << "the " << kiln::to_string(backend.kind())
                  << " backend's vendor libraries are missing (above); nothing compiled or ran\n";
        return 0;
    }
    const std::string target(kiln::detail::traits(backend.kind()).offline_target);
    const auto binary =
        kiln::detail::compile_uncached({kernel_source(), "squared_diff", {}, {}}, target);
    std::cout << "compiled squared_diff for " << target << ": " << binary.image.size()
              << " bytes of code object; nothing ran\n";
    return 0;
}

int run() {
    const kiln::Device device;
    std::cout << "device " << device.id() << ": " << device.properties().name << " ("
              << device.properties().arch << ")\n";
    if (kiln::active_backend() == kiln::BackendKind::host) {
        std::cout << "no GPU backend sees a device: the kernel runs on this machine's CPU\n";
    }
    auto& backend = kiln::detail::backend();
    backend.set_device(device.id());

    const int n = 10;
    const float y = 5.0F;
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i);
    }
    const std::size_t bytes = n * sizeof(float);
    void* dx = backend.allocate(device.id(), bytes);
    void* dz = backend.allocate(device.id(), bytes);
    backend.copy(dx, x.data(), bytes);

    auto module = backend.load_module(
        device.id(),
        kiln::detail::compile_uncached({kernel_source(), "squared_diff", {}, {}}).image);
    auto function = backend.get_function(device.id(), module, "squared_diff");
    float scalar = y;
    int count = n;
    void* args[] = {&dx, &scalar, &dz, &count};
    backend.launch(function, {{1, 1, 1}, {32, 1, 1}, 0, kiln::StreamView{nullptr, device.id()}},
                   args);
    device.synchronize();

    std::vector<float> z(n);
    backend.copy(z.data(), dz, bytes);
    backend.unload_module(device.id(), module);
    backend.deallocate(device.id(), dx);
    backend.deallocate(device.id(), dz);

    bool ok = true;
    std::cout << "(x - 5)^2 for x = 0..9: [";
    for (int i = 0; i < n; ++i) {
        std::cout << (i ? " " : "") << z[i];
        ok = ok && z[i] == (x[i] - y) * (x[i] - y);
    }
    std::cout << "]\n" << (ok ? "matches the host" : "MISMATCH against the host") << '\n';
    return ok ? 0 : 1;
}

}  // namespace

int main() {
    try {
        std::cout << "kiln " << KILN_VERSION << '\n';
        if (kiln::compiled_backends().empty()) {
            std::cout << "no GPU backend in this build (preset cpu); nothing to compile or run\n";
            return 0;
        }
        std::cout << "backend: " << kiln::to_string(kiln::active_backend()) << '\n';
        // On the host backend, why no GPU runs the kernel.
        if (kiln::device_count() > 0 && !kiln::no_device_reason().empty()) {
            std::cout << "(" << kiln::no_device_reason() << ")\n";
        }
        return kiln::device_count() > 0 ? run() : compile_only();
    } catch (const kiln::Error& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
}
