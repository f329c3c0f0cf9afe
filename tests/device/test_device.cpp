// Device discovery, memory and a kernel round trip on a real GPU. Skips, saying why, without one.
#include "core/backend.hpp"
#include "core/compile/compile_cache.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/kernels.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

using kiln::detail::backend;

const char* axpy() {
    return kiln::test::is_host() ? kiln::test::host_axpy_source : kiln::test::axpy_source;
}

TEST(Device, PropertiesDescribeARealDevice) {
    KILN_REQUIRE_DEVICE();
    const kiln::Device device(0);
    const auto& p = device.properties();
    EXPECT_FALSE(p.name.empty());
    const char* arch = kiln::test::is_host() ? "native" : (kiln::test::is_nvidia() ? "sm_" : "gfx");
    EXPECT_TRUE(p.arch.starts_with(arch)) << p.arch;
    EXPECT_GT(p.multiprocessor_count, 0);
    EXPECT_TRUE(p.warp_size == 32 || p.warp_size == 64) << p.warp_size;
    EXPECT_GE(p.max_threads_per_block, 256);
    EXPECT_GT(p.total_memory, std::size_t{1} << 30);
    EXPECT_GE(p.shared_memory_per_block, 16U * 1024U);
    EXPECT_GE(p.shared_memory_per_block_optin, p.shared_memory_per_block);
    EXPECT_GE(p.least_stream_priority, p.greatest_stream_priority);
    EXPECT_EQ(&p, &kiln::Device(0).properties()) << "properties are read once per device";
    std::cout << "[ device   ] " << p.name << " (" << p.arch << "), " << p.multiprocessor_count
              << " multiprocessors, warp " << p.warp_size << ", " << (p.total_memory >> 20)
              << " MiB\n";
}

// Compile for the device's own target, load, launch over several blocks with a ragged tail,
// and compare with the same arithmetic on the host (exact: every value is a small integer).
TEST(Device, CompiledKernelRunsAndMatchesTheHost) {
    KILN_REQUIRE_DEVICE();
    const kiln::Device device(0);
    auto& gpu = backend();
    gpu.set_device(device.id());

    const int n = 100'003;
    std::vector<float> x(n);
    std::vector<float> y(n);
    for (int i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i % 1000);
        y[i] = static_cast<float>((7 * i) % 777);
    }
    const std::size_t bytes = n * sizeof(float);
    void* dx = gpu.allocate(device.id(), bytes);
    void* dy = gpu.allocate(device.id(), bytes);
    gpu.copy(dx, x.data(), bytes);
    gpu.copy(dy, y.data(), bytes);

    const auto binary = kiln::detail::compile_uncached({axpy(), "axpy", {}, {}});
    EXPECT_EQ(binary.target, device.properties().arch);
    auto module = gpu.load_module(device.id(), binary.image);
    auto function = gpu.get_function(device.id(), module, "axpy");
    float a = 3.0F;
    int count = n;
    void* args[] = {&a, &dx, &dy, &count};
    const unsigned block = 256;
    gpu.launch(
        function,
        {{(n + block - 1) / block, 1, 1}, {block, 1, 1}, 0, kiln::StreamView{nullptr, device.id()}},
        args);
    device.synchronize();

    std::vector<float> result(n);
    gpu.copy(result.data(), dy, bytes);
    int mismatches = 0;
    for (int i = 0; i < n; ++i) {
        mismatches += result[i] != a * x[i] + y[i];
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_EQ(result[n - 1], a * x[n - 1] + y[n - 1]);

    gpu.unload_module(device.id(), module);
    gpu.deallocate(device.id(), dx);
    gpu.deallocate(device.id(), dy);
}

TEST(Device, MissingFunctionIsABackendErrorNamingTheCall) {
    KILN_REQUIRE_DEVICE();
    auto& gpu = backend();
    gpu.set_device(0);
    const auto binary = kiln::detail::compile_uncached({axpy(), "axpy", {}, {}});
    auto module = gpu.load_module(0, binary.image);
    try {
        (void)gpu.get_function(0, module, "no_such_kernel");
        ADD_FAILURE() << "expected kiln::BackendError";
    } catch (const kiln::BackendError& e) {
        EXPECT_EQ(e.call(),
                  kiln::test::is_host()
                      ? "dlsym"
                      : (kiln::test::is_cuda() ? "cudaLibraryGetKernel" : "hipModuleGetFunction"));
    }
    gpu.unload_module(0, module);
}

}  // namespace
