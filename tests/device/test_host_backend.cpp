// What only the host backend does: kernels that throw, its compiler's errors, each device header
// alone under its compiler, kernels of one name in several modules, the legacy default stream's
// ordering on worker threads, a machine without a C++ compiler, and AddressSanitizer in kernels
// under the asan preset. Skips on the GPU backends.
#include "backends/host/compiler.hpp"
#include "backends/host/prelude_cache.hpp"
#include "backends/host/process.hpp"
#include "core/backend.hpp"
#include "core/codegen/device_prelude.hpp"
#include "core/compile/compile_cache.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/device_texts.hpp"
#include "tests/support/temporary_directory.hpp"
#include "tests/support/test_kernels.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using kiln::test::spin_cycles;
using kiln::test::TestKernels;

// Whether this build runs under AddressSanitizer (the asan preset), as libkiln then does.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool address_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool address_sanitizer = true;
#else
constexpr bool address_sanitizer = false;
#endif
#else
constexpr bool address_sanitizer = false;
#endif

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A kernel's exception is kept by its stream, as a GPU keeps a fault, and thrown by the next
// synchronization of that stream, once: the stream's later work still runs.
TEST(HostBackend, KernelExceptionSurfacesAtTheNextSynchronize) {
    KILN_REQUIRE_HOST();
    TestKernels kernels;
    kiln::Stream stream;
    const kiln::ndarray value = kiln::zeros({1}, kiln::int32);
    auto* target = static_cast<int*>(value.data());
    kernels.spin(stream, spin_cycles(20));
    kernels.fail(stream, target);
    EXPECT_FALSE(stream.done()) << "the failing kernel ran before the 20 ms kernel ahead of it";
    kernels.store(stream, target, 5);
    try {
        stream.synchronize();
        ADD_FAILURE() << "expected kiln::BackendError";
    } catch (const kiln::BackendError& e) {
        EXPECT_TRUE(contains(e.what(), "host kernel 'fail'")) << e.what();
        EXPECT_TRUE(contains(e.what(), "failed on purpose, target 0")) << e.what();
    }
    EXPECT_NO_THROW(stream.synchronize()) << "the error is reported once";
    EXPECT_EQ(value.get<std::int32_t>(), (std::vector<std::int32_t>{5}));
}

// Device synchronize reports a failure on any stream; an event reports its own stream's.
TEST(HostBackend, DeviceAndEventSynchronizeReportKernelExceptions) {
    KILN_REQUIRE_HOST();
    TestKernels kernels;
    const kiln::ndarray value = kiln::zeros({1}, kiln::int32);
    auto* target = static_cast<int*>(value.data());
    {
        const kiln::Stream stream(true);
        kernels.fail(stream, target);
        EXPECT_THROW(kiln::Device::current().synchronize(), kiln::BackendError);
    }
    kiln::Stream stream(true);
    kernels.fail(stream, target);
    const kiln::Event after = stream.record();
    EXPECT_THROW(after.synchronize(), kiln::BackendError);
    EXPECT_NO_THROW(stream.synchronize());
}

// The compiler's log and the numbered source, as NVRTC's errors give them.
TEST(HostBackend, CompileErrorHasTheCompilersLogAndTheNumberedSource) {
    KILN_REQUIRE_HOST();
    const char* source =
        "static void broken_body(const kiln_host_grid&, int* x) {\n"
        "    *x = undeclared_name;\n"
        "}\n"
        "KILN_HOST_KERNEL(broken, broken_body)\n";
    try {
        (void)kiln::detail::compile_uncached({source, "broken", {}, {}});
        ADD_FAILURE() << "expected kiln::CompileError";
    } catch (const kiln::CompileError& e) {
        EXPECT_EQ(e.kernel(), "broken");
        EXPECT_TRUE(contains(e.log(), "undeclared_name")) << e.log();
        EXPECT_TRUE(contains(e.log(), "broken.cpp:2:")) << e.log();
        EXPECT_TRUE(contains(e.numbered_source(), "2\t    *x = undeclared_name;"))
            << e.numbered_source();
        EXPECT_TRUE(contains(e.what(), "undeclared_name")) << e.what();
    }
}

// Each device header on its own under the host compiler, after kiln/host.h as every host compile
// includes it first, so that none relies on another having been included before it.
TEST(HostBackend, EachDeviceHeaderCompilesAloneAfterHostH) {
    KILN_REQUIRE_HOST();
    const auto& compiler = kiln::detail::host::host_compiler();
    ASSERT_FALSE(compiler.path.empty()) << compiler.reason;
    const kiln::test::TemporaryDirectory scratch("kiln-alone-");
    const auto headers = kiln::detail::device_headers(kiln::BackendKind::host,
                                                      kiln::Device::current().properties().arch);
    kiln::detail::host::write_prelude(scratch.path() / "include", headers);
    // Each header by its include; the shared texts that kernels carry, as they are.
    std::vector<std::pair<std::string, std::string>> sources;
    for (const auto& header : headers) {
        sources.emplace_back(header.name, "#include <" + header.name + ">\n");
    }
    for (const auto& [name, file] : kiln::test::standalone_device_texts()) {
        sources.emplace_back(name, std::string(file.text));
    }
    for (const auto& [name, text] : sources) {
        SCOPED_TRACE(name);
        const auto source = scratch.path() / "alone.cpp";
        std::ofstream(source) << text;
        const auto result = kiln::detail::host::run_process(
            {compiler.path, "-std=c++17", "-fsyntax-only", "-I",
             (scratch.path() / "include").string(), "-include", "kiln/host.h", source.string()},
            scratch.path());
        EXPECT_EQ(result.exit_code, 0) << result.output;
    }
}

// The host kernel ABI is plain C, as libkiln and kernels both read it.
TEST(HostBackend, KernelAbiHeaderCompilesAsC) {
    KILN_REQUIRE_HOST();
    const auto& compiler = kiln::detail::host::host_compiler();
    ASSERT_FALSE(compiler.path.empty()) << compiler.reason;
    const kiln::test::TemporaryDirectory scratch("kiln-abi-c-");
    kiln::detail::host::write_prelude(
        scratch.path() / "include",
        kiln::detail::device_headers(kiln::BackendKind::host,
                                     kiln::Device::current().properties().arch));
    const auto source = scratch.path() / "abi.c";
    std::ofstream(source) << "#include <kiln/host_abi.h>\n";
    const auto result = kiln::detail::host::run_process(
        {compiler.path, "-x", "c", "-std=c99", "-pedantic-errors", "-fsyntax-only", "-I",
         (scratch.path() / "include").string(), source.string()},
        scratch.path());
    EXPECT_EQ(result.exit_code, 0) << result.output;
}

// Two modules that each define a kernel of one name load as two modules: each launch runs its
// own module's code.
TEST(HostBackend, ModulesWithOneKernelNameStayApart) {
    KILN_REQUIRE_HOST();
    auto& host = kiln::detail::backend();
    const auto source = [](int value) {
        return "static void same_body(const kiln_host_grid&, int* x) { *x = " +
               std::to_string(value) + "; }\nKILN_HOST_KERNEL(same, same_body)\n";
    };
    const std::string first_source = source(1);
    const std::string second_source = source(2);
    void* first =
        host.load_module(0, kiln::detail::compile_uncached({first_source, "same", {}, {}}).image);
    void* second =
        host.load_module(0, kiln::detail::compile_uncached({second_source, "same", {}, {}}).image);
    const kiln::ndarray values = kiln::zeros({2}, kiln::int32);
    auto* at = static_cast<int*>(values.data());
    int* targets[] = {at, at + 1};
    void* first_args[] = {&targets[0]};
    void* second_args[] = {&targets[1]};
    host.launch(host.get_function(0, first, "same"),
                {{1, 1, 1}, {1, 1, 1}, 0, kiln::StreamView{nullptr, 0}}, first_args);
    host.launch(host.get_function(0, second, "same"),
                {{1, 1, 1}, {1, 1, 1}, 0, kiln::StreamView{nullptr, 0}}, second_args);
    EXPECT_EQ(values.get<std::int32_t>(), (std::vector<std::int32_t>{1, 2}));
    host.unload_module(0, first);
    host.unload_module(0, second);
}

// Issue 31: a module was written to TMPDIR to be loaded, so a TMPDIR mounted noexec (or gone)
// failed every launch with the loader's own message. Modules load from memory files now, named by
// their descriptors' numbers: a module loaded after another was unloaded, which may get the same
// number, must still be itself.
TEST(HostBackend, ModulesLoadWithoutTmpdirAndStayApartAfterUnloads) {
    KILN_REQUIRE_HOST();
    auto& host = kiln::detail::backend();
    std::vector<std::vector<char>> images;
    for (int value = 1; value <= 3; ++value) {
        const std::string source =
            "static void body(const kiln_host_grid&, int* x) { *x = " + std::to_string(value) +
            "; }\nKILN_HOST_KERNEL(stored, body)\n";
        images.push_back(kiln::detail::compile_uncached({source, "stored", {}, {}}).image);
    }
    const char* saved = std::getenv("TMPDIR");
    const std::string saved_value = saved != nullptr ? saved : "";
    setenv("TMPDIR", "/nonexistent/kiln-no-tmpdir", 1);
    const kiln::ndarray value = kiln::zeros({1}, kiln::int32);
    int* target = static_cast<int*>(value.data());
    void* args[] = {&target};
    std::vector<int> seen;
    try {
        for (int round = 0; round < 6; ++round) {
            void* module = host.load_module(0, images[round % 3]);
            host.launch(host.get_function(0, module, "stored"),
                        {{1, 1, 1}, {1, 1, 1}, 0, kiln::StreamView{nullptr, 0}}, args);
            seen.push_back(value.get<std::int32_t>().front());
            host.unload_module(0, module);
        }
    } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
    }
    if (saved != nullptr) {
        setenv("TMPDIR", saved_value.c_str(), 1);
    } else {
        unsetenv("TMPDIR");
    }
    EXPECT_EQ(seen, (std::vector<int>{1, 2, 3, 1, 2, 3}));
}

// glibc before 2.40 lets the slow path of a TLS descriptor (a thread's first use of a module's
// thread_local state once the static TLS surplus is spent) clobber vector registers, which GCC
// keeps live across the call: after a dozen CUDA-dialect modules in one process a vectorised
// kernel called through a null pointer (RawKernel.NaiveMatmulMatchesTheHost, run after the
// JitKernel tests). The modules stay loaded so that their TLS stays spent.
TEST(HostBackend, KernelsRunAfterManyModulesSpentTheStaticTls) {
    KILN_REQUIRE_HOST();
    constexpr int module_count = 24;
    std::vector<kiln::RawKernel> fills;
    kiln::ndarray filled = kiln::zeros({32}, kiln::int32);
    for (int i = 0; i < module_count; ++i) {
        const std::string name = "fill_" + std::to_string(i);
        fills.emplace_back("extern \"C\" __global__ void " + name +
                               "(int* x) { x[threadIdx.x] = threadIdx.x * " + std::to_string(i) +
                               "; }",
                           name);
        fills.back()(kiln::Dim3{1}, kiln::Dim3{32}, {filled});
        EXPECT_EQ(filled.get<std::int32_t>()[31], 31 * i) << name;
    }
    const kiln::RawKernel matmul(R"(
extern "C" __global__ void tls_spent_matmul(const float* a, const float* b, float* c, int m, int n,
                                            int k) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float sum = 0.0f;
        for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
        c[row * n + col] = sum;
    }
}
)",
                                 "tls_spent_matmul");
    constexpr int m = 67;
    constexpr int n = 45;
    constexpr int k = 33;
    std::vector<float> a(m * k);
    std::vector<float> b(k * n);
    for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = static_cast<float>(i % 7) - 3.0F;
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
        b[i] = static_cast<float>(i % 5) - 2.0F;
    }
    kiln::ndarray c = kiln::empty({m, n}, kiln::float32);
    matmul(kiln::Dim3{(n + 15) / 16, (m + 15) / 16}, kiln::Dim3{16, 16},
           {kiln::array(a), kiln::array(b), c, m, n, k});
    const auto got = c.get<float>();
    int mismatches = 0;
    for (int row = 0; row < m; ++row) {
        for (int col = 0; col < n; ++col) {
            float want = 0.0F;  // small integers: exact in float, in any order
            for (int i = 0; i < k; ++i) {
                want += a[row * k + i] * b[i * n + col];
            }
            mismatches += got[row * n + col] != want;
        }
    }
    EXPECT_EQ(mismatches, 0);
}

// CUDA's legacy default stream: its work waits for a blocking stream's earlier work, even while
// that stream's worker thread is still busy with it.
TEST(HostBackend, LegacyStreamWaitsForBlockingStreams) {
    KILN_REQUIRE_HOST();
    TestKernels kernels;
    const kiln::ndarray cells = kiln::zeros({2}, kiln::int32);
    auto* flag = static_cast<int*>(cells.data());
    kiln::Stream blocking;
    kernels.spin(blocking, spin_cycles(30));
    kernels.store(blocking, flag, 7);
    kernels.copy_int(kiln::null_stream(), flag, flag + 1);
    kiln::synchronize(kiln::null_stream());
    EXPECT_EQ(cells.get<std::int32_t>(), (std::vector<std::int32_t>{7, 7}));
}

// A kernel still queued keeps its module loaded: unloading it right after the launch is safe.
TEST(HostBackend, UnloadingAModuleWaitsForItsQueuedLaunches) {
    KILN_REQUIRE_HOST();
    const kiln::ndarray value = kiln::zeros({1}, kiln::int32);
    kiln::Stream stream;
    {
        TestKernels kernels;
        kernels.spin(stream, spin_cycles(20));
        kernels.store(stream, static_cast<int*>(value.data()), 9);
    }
    stream.synchronize();
    EXPECT_EQ(value.get<std::int32_t>(), (std::vector<std::int32_t>{9}));
}

// A thread that records an event on its per-thread stream, drops the event and ends while the
// stream is busy: the stream finishes its work and goes on that thread, not on its own worker
// (whose join of itself would terminate the process).
TEST(HostBackend, PerThreadStreamOutlivesItsThreadsEvents) {
    KILN_REQUIRE_HOST();
    TestKernels kernels;
    const kiln::ndarray value = kiln::zeros({1}, kiln::int32);
    auto* target = static_cast<int*>(value.data());
    std::thread([&] {
        const kiln::StreamView mine = kiln::per_thread_stream();
        kernels.spin(mine, spin_cycles(20));
        kiln::Event marker;
        marker.record(mine);
        kernels.store(mine, target, 4);
    }).join();
    kiln::Device::current().synchronize();
    EXPECT_EQ(value.get<std::int32_t>(), (std::vector<std::int32_t>{4}));
}

// A stream destroyed before its failed work was reported goes anyway; the next device
// synchronize reports the failure, once.
TEST(HostBackend, FailureOfADestroyedStreamSurfacesAtDeviceSynchronize) {
    KILN_REQUIRE_HOST();
    TestKernels kernels;
    const kiln::ndarray value = kiln::zeros({1}, kiln::int32);
    {
        const kiln::Stream stream;
        kernels.fail(stream, static_cast<int*>(value.data()));
    }
    try {
        kiln::Device::current().synchronize();
        ADD_FAILURE() << "expected kiln::BackendError";
    } catch (const kiln::BackendError& e) {
        EXPECT_TRUE(contains(e.what(), "failed on purpose")) << e.what();
    }
    EXPECT_NO_THROW(kiln::Device::current().synchronize()) << "the error is reported once";
}

// A synchronous copy is ordered after every blocking stream's earlier work, as cudaMemcpy is, so
// it reports their failures too, once: whether the failed work was still running or had ended.
// A non-blocking stream's failure stays with it.
TEST(HostBackend, SynchronousCopyReportsFailuresOfTheBlockingStreamsItWaitedFor) {
    KILN_REQUIRE_HOST();
    TestKernels kernels;
    const kiln::ndarray value = kiln::zeros({1}, kiln::int32);
    auto* target = static_cast<int*>(value.data());
    const int source = 7;
    int copied = 0;
    const auto copy = [&] { kiln::detail::backend().copy(&copied, &source, sizeof source); };
    const kiln::Stream blocking;
    kernels.spin(blocking, spin_cycles(20));
    kernels.fail(blocking, target);
    try {
        copy();
        ADD_FAILURE() << "expected kiln::BackendError";
    } catch (const kiln::BackendError& e) {
        EXPECT_TRUE(contains(e.what(), "failed on purpose")) << e.what();
    }
    EXPECT_EQ(copied, 7) << "the copy itself ran";
    EXPECT_NO_THROW(blocking.synchronize()) << "the error is reported once";

    kernels.fail(blocking, target);
    while (!blocking.done()) {
        std::this_thread::yield();
    }
    EXPECT_THROW(copy(), kiln::BackendError) << "a failure of work that had ended";
    EXPECT_NO_THROW(copy());

    const kiln::Stream non_blocking(true);
    kernels.fail(non_blocking, target);
    while (!non_blocking.done()) {
        std::this_thread::yield();
    }
    EXPECT_NO_THROW(copy());
    EXPECT_THROW(non_blocking.synchronize(), kiln::BackendError);
}

// An event recorded during a capture marks work that runs only in the graph's launches: waiting
// for it or asking whether it is done is an error (CUDA: cudaErrorCapturedEvent), not an answer.
TEST(HostBackend, AnEventRecordedInACaptureCannotBeWaitedForOutsideIt) {
    KILN_REQUIRE_HOST();
    const kiln::Stream stream(true);
    stream.begin_capture();
    const kiln::Event captured = stream.record();
    try {
        captured.synchronize();
        ADD_FAILURE() << "expected kiln::Error";
    } catch (const kiln::Error& e) {
        EXPECT_TRUE(contains(e.what(), "recorded during a graph capture")) << e.what();
    }
    EXPECT_THROW((void)captured.done(), kiln::Error);
    (void)stream.end_capture();
    const kiln::Stream other(true);
    EXPECT_THROW(other.wait_event(captured), kiln::Error) << "the capture has ended";
}

// A host function that synchronizes would wait for itself: it gets an error instead of a hang.
TEST(HostBackend, SynchronizingInsideAHostFunctionIsAnError) {
    KILN_REQUIRE_HOST();
    kiln::Stream stream;
    std::string stream_error;
    std::string device_error;
    stream.launch_host_func([&] {
        try {
            stream.synchronize();
        } catch (const kiln::Error& e) {
            stream_error = e.what();
        }
        try {
            kiln::Device::current().synchronize();
        } catch (const kiln::Error& e) {
            device_error = e.what();
        }
    });
    stream.synchronize();
    EXPECT_TRUE(contains(stream_error, "from a host function")) << stream_error;
    EXPECT_TRUE(contains(device_error, "device synchronize was called from a host function"))
        << device_error;
}

// A handle the host backend never made (another backend's stream, a stale pointer) is an error,
// not a dereference.
TEST(HostBackend, AForeignStreamHandleIsAnError) {
    KILN_REQUIRE_HOST();
    TestKernels kernels;
    const kiln::ndarray value = kiln::zeros({1}, kiln::int32);
    alignas(16) static char not_a_stream[16] = {};
    try {
        kernels.store(kiln::StreamView(not_a_stream), static_cast<int*>(value.data()), 1);
        ADD_FAILURE() << "expected kiln::Error";
    } catch (const kiln::Error& e) {
        EXPECT_TRUE(contains(e.what(), "is not a host stream")) << e.what();
    }
}

// Without a C++ compiler the host backend sees no device, and says what it looked for. Checked in
// a child process: the compiler is found once per process.
TEST(HostBackendDeathTest, NoCompilerMeansNoDeviceWithAReason) {
    if (!kiln::test::is_host()) {
        GTEST_SKIP() << "host backend only";
    }
    KILN_SKIP_UNDER_SANITIZER(kiln::test::death_test);
    // The child runs this body again with the variable set, and so without a device.
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    // NOLINTNEXTLINE(concurrency-mt-unsafe): this process found its compiler long ago
    setenv("KILN_HOST_CXX", "/nonexistent/kiln-c++", 1);
    EXPECT_EXIT(
        {
            std::fprintf(stderr, "devices %d: %s\n", kiln::device_count(),
                         kiln::no_device_reason().c_str());
            std::_Exit(kiln::device_count() == 0 ? 3 : 0);
        },
        testing::ExitedWithCode(3),
        "devices 0: no C\\+\\+ compiler: KILN_HOST_CXX='/nonexistent/kiln-c\\+\\+' is not an "
        "executable file");
    unsetenv("KILN_HOST_CXX");  // NOLINT(concurrency-mt-unsafe)
}

// KILN_HOST_DEVICES out of 1 to 64, or not a number, is no device, with the reason. Checked in a
// child process each, as above: the count is read once per process.
TEST(HostBackendDeathTest, BadHostDeviceCountsMeanNoDeviceWithAReason) {
    if (!kiln::test::is_host()) {
        GTEST_SKIP() << "host backend only";
    }
    KILN_SKIP_UNDER_SANITIZER(kiln::test::death_test);
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const char* set = std::getenv("KILN_HOST_DEVICES");  // NOLINT(concurrency-mt-unsafe)
    const std::string before = set != nullptr ? set : "";
    for (const char* count : {"0", "65", "two"}) {
        // The tests' main keeps a value that is already set.
        setenv("KILN_HOST_DEVICES", count, 1);  // NOLINT(concurrency-mt-unsafe)
        EXPECT_EXIT(
            {
                std::fprintf(stderr, "devices %d: %s\n", kiln::device_count(),
                             kiln::no_device_reason().c_str());
                std::_Exit(kiln::device_count() == 0 ? 3 : 0);
            },
            testing::ExitedWithCode(3),
            std::string("devices 0: KILN_HOST_DEVICES is '") + count +
                "': expected a number of devices from 1 to 64")
            << count;
    }
    if (set != nullptr) {
        setenv("KILN_HOST_DEVICES", before.c_str(), 1);  // NOLINT(concurrency-mt-unsafe)
    } else {
        unsetenv("KILN_HOST_DEVICES");  // NOLINT(concurrency-mt-unsafe)
    }
}

// A kernel that writes one element past the end of a heap array of four, launched and waited for.
void write_past_the_end() {
    const char* source =
        "static void past_end_body(const kiln_host_grid&, int* x, int n) {\n"
        "    x[n] = 1;\n"
        "}\n"
        "KILN_HOST_KERNEL(past_end, past_end_body)\n";
    auto& host = kiln::detail::backend();
    void* module =
        host.load_module(0, kiln::detail::compile_uncached({source, "past_end", {}, {}}).image);
    std::vector<int> values(4);
    int* target = values.data();
    int count = 4;
    void* args[] = {&target, &count};
    host.launch(host.get_function(0, module, "past_end"),
                {{1, 1, 1}, {1, 1, 1}, 0, kiln::StreamView{nullptr, 0}}, args);
    kiln::synchronize(kiln::null_stream());
}

// Under the asan preset the host compiler builds kernels with -fsanitize=address as well, so a
// kernel's write past the end of a heap array is reported as libkiln's own would be. Checked in
// a child process, which the report ends.
TEST(HostBackendDeathTest, OutOfBoundsWriteInAKernelIsReportedByAddressSanitizer) {
    KILN_REQUIRE_HOST();
    if (!address_sanitizer) {
        GTEST_SKIP() << "needs libkiln built with AddressSanitizer (the asan preset)";
    }
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(write_past_the_end(),
                 "AddressSanitizer: heap-buffer-overflow(.|\n)*WRITE of size 4");
}

}  // namespace
