// The interface every GPU backend implements. The core talks to the GPU only through this, so it
// never includes a vendor header; backends/runtime.hpp implements it once over a vendor API table.
#pragma once

#include <kiln/backend.hpp>
#include <kiln/device.hpp>
#include <kiln/dtype.hpp>
#include <kiln/error.hpp>
#include <kiln/event.hpp>
#include <kiln/kernel_attributes.hpp>
#include <kiln/stream_view.hpp>

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln::detail {

using NativeStream = void*;
using NativeModule = void*;
using NativeFunction = void*;
using NativeEvent = void*;
using NativeGraph = void*;

class Collectives;

struct Dim3 {
    unsigned x = 1, y = 1, z = 1;
};

struct LaunchConfig {
    Dim3 grid;
    Dim3 block;
    std::size_t shared_mem = 0;
    StreamView stream;  // its device is the one the kernel runs on
};

// One of kiln's device headers, handed to the compiler by name with every program.
struct DeviceHeader {
    std::string name;  // as included: "kiln/complex.h"
    std::string text;

    bool operator==(const DeviceHeader&) const = default;
};

// Stage 1 of the pipeline: a program made ready for the compiler by core/compile (resolve), so
// that a backend compiles it as it is. The views point at text that outlives the compile.
struct CompileRequest {
    std::string_view source;
    std::string_view kernel;  // for messages and the program's file name
    // Final: the program's own, any debug options, then the toolkit's include directories.
    std::vector<std::string> options;
    std::string target;  // "sm_90", "gfx90a", ...; always resolved
    // Template instantiations and overloads to look up by expression ("f<float>").
    std::vector<std::string> name_expressions;
    std::span<const DeviceHeader> headers;  // kiln's device headers for the target
    bool cuda_dialect = false;              // a user's CUDA source (Program::cuda_dialect)
    // The one key every level of the compile cache knows this request by; backends ignore it.
    std::string key;
};

// Stage 2: a binary for one target, ready to load.
struct CompiledBinary {
    std::vector<char> image;
    std::string target;
    std::string log;  // warnings; empty when the compiler said nothing
    // name expression -> the lowered (mangled) name to look the function up by
    std::vector<std::pair<std::string, std::string>> lowered_names;
};

// The vendor toolkit's headers that run-time compiled sources may include (cooperative_groups.h,
// cuda_fp16.h, CUB; hip/hip_fp16.h), found once per process.
struct ToolkitHeaders {
    std::vector<std::string> options;  // added to every compile, and so to every cache key
    HeaderSearch search;
};

using FunctionAttributes = KernelAttributes;

enum class FunctionAttribute { max_dynamic_shared_size_bytes, preferred_shared_memory_carveout };

// A vendor library a backend loads at run time (NVRTC, the HIP runtime, ...): the file in use, or
// why there is none.
struct VendorLibraryStatus {
    std::string name;    // "NVRTC"
    std::string path;    // the file loaded; "" when it was not found
    std::string reason;  // "" when loaded; otherwise the names tried and where kiln looked
};

// One batched product C = A B of row-major, C-contiguous matrices: A is m x k, B is k x n, C is
// m x n, each batch's matrices `*_stride` elements after the previous one (0: the same matrix).
struct GemmCall {
    DType dtype = DType::float32;  // float32, float64, complex64 or complex128
    int m = 0, n = 0, k = 0;
    const void* a = nullptr;
    long long a_stride = 0;
    const void* b = nullptr;
    long long b_stride = 0;
    void* c = nullptr;
    long long c_stride = 0;
    int batch = 1;
    StreamView stream;
    // Scratch for the BLAS, stream-ordered like the operands: one handle serves every stream.
    void* workspace = nullptr;
    std::size_t workspace_bytes = 0;
};

// Every call that acts on a device names it: a device index, or the device of the stream it is
// given. The backend makes that device current for the vendor call and restores the caller's
// after, in one place, so nothing above it depends on (or changes) the current device. A stream
// of any_device runs under whichever device is current.
class Backend {
public:
    Backend() = default;
    Backend(const Backend&) = delete;
    Backend& operator=(const Backend&) = delete;
    Backend(Backend&&) = delete;
    Backend& operator=(Backend&&) = delete;
    virtual ~Backend() = default;

    [[nodiscard]] virtual BackendKind kind() const noexcept = 0;

    // The vendor libraries this backend loads at run time. Without all of them it sees no
    // device and cannot compile; no_device_reason() then names the missing ones.
    [[nodiscard]] virtual std::vector<VendorLibraryStatus> libraries() = 0;

    // Devices: a missing driver or device is a count of 0 with a reason, never an exception.
    [[nodiscard]] virtual int device_count() = 0;
    [[nodiscard]] virtual std::string no_device_reason() = 0;
    [[nodiscard]] virtual DeviceProperties query_properties(int device) = 0;
    // The calling thread's current device: read only where a public call starts.
    [[nodiscard]] virtual int current_device() = 0;
    virtual void set_device(int device) = 0;
    virtual void synchronize_device(int device) = 0;

    // Whether `device` can address `peer`'s memory directly, and making it able to (CUDA's peer
    // access; one call per pair, again is no error).
    [[nodiscard]] virtual bool can_access_peer(int device, int peer) = 0;
    virtual void enable_peer_access(int device, int peer) = 0;

    [[nodiscard]] virtual bool supports_memory_pools(int device) = 0;
    // Free and total bytes of `device`.
    [[nodiscard]] virtual std::pair<std::size_t, std::size_t> memory_info(int device) = 0;

    // Memory on a device. allocate throws OutOfMemory when the device is full.
    [[nodiscard]] virtual void* allocate(int device, std::size_t bytes) = 0;
    virtual void deallocate(int device, void* ptr) = 0;
    [[nodiscard]] virtual void* allocate_async(std::size_t bytes, StreamView stream) = 0;
    virtual void deallocate_async(void* ptr, StreamView stream) = 0;
    [[nodiscard]] virtual void* allocate_pinned(std::size_t bytes) = 0;
    virtual void deallocate_pinned(void* ptr) = 0;
    virtual void copy(void* dst, const void* src, std::size_t bytes) = 0;
    // Between any two devices' memory, or host memory; the stream's device issues it.
    virtual void copy_async(void* dst, const void* src, std::size_t bytes, StreamView stream) = 0;
    virtual void fill_bytes_async(void* dst, int value, std::size_t bytes, StreamView stream) = 0;

    // The null stream is the legacy default stream of the view's device.
    [[nodiscard]] virtual NativeStream create_stream(int device, bool non_blocking,
                                                     int priority) = 0;
    virtual void destroy_stream(StreamView stream) = 0;
    [[nodiscard]] virtual NativeStream per_thread_stream() const noexcept = 0;
    virtual void synchronize_stream(StreamView stream) = 0;
    [[nodiscard]] virtual bool stream_done(StreamView stream) = 0;
    // The event may belong to another device than the stream.
    virtual void stream_wait_event(StreamView stream, NativeEvent event) = 0;
    // Runs `function` on a runtime thread once prior work on `stream` is done. It must not call
    // into the GPU runtime.
    virtual void launch_host_func(StreamView stream, std::function<void()> function) = 0;

    // An event of `device`, which only that device's streams may record.
    [[nodiscard]] virtual NativeEvent create_event(int device, EventFlags flags) = 0;
    virtual void destroy_event(NativeEvent event) = 0;
    virtual void record_event(NativeEvent event, StreamView stream) = 0;
    virtual void synchronize_event(NativeEvent event) = 0;
    [[nodiscard]] virtual bool event_done(NativeEvent event) = 0;
    [[nodiscard]] virtual float elapsed_ms(NativeEvent start, NativeEvent end) = 0;

    // Profiler ranges (NVTX on CUDA; nothing on HIP, whose roctx Debian does not ship).
    virtual void range_push(const char* name) noexcept = 0;
    virtual void range_pop() noexcept = 0;

    // Capture of a stream's work into an executable graph (relaxed mode: the pool may allocate).
    virtual void begin_capture(StreamView stream) = 0;
    [[nodiscard]] virtual NativeGraph end_capture(StreamView stream) = 0;
    virtual void launch_graph(NativeGraph graph, StreamView stream) = 0;
    virtual void destroy_graph(NativeGraph graph) = 0;

    // Runs `call` through the vendor's BLAS and returns true; or returns false, running nothing,
    // when this backend has no BLAS library loaded (kiln's own kernel runs instead).
    [[nodiscard]] virtual bool blas_gemm(const GemmCall& call) = 0;

    // The scratch bytes blas_gemm wants in GemmCall::workspace on `device`: 0 when it takes none
    // (no BLAS loaded, or one that keeps its own scratch), so matmul takes nothing from the pool.
    [[nodiscard]] virtual std::size_t blas_workspace_bytes(int device) = 0;

    // The library of collectives (NCCL, RCCL) that kiln::distributed runs on. A backend without
    // one keeps this default, which throws NoDevice naming the backend.
    [[nodiscard]] virtual Collectives& collectives();

    // Compiling needs no device; targets are the compiler's own list.
    [[nodiscard]] virtual std::vector<std::string> supported_targets() = 0;
    // Names the compiler and its version, for cache keys ("NVRTC 13.0").
    [[nodiscard]] virtual std::string compiler_version() = 0;
    [[nodiscard]] virtual CompiledBinary compile(const CompileRequest& request) = 0;
    // The options that let sources include the toolkit's headers, which resolve adds to every
    // request, and where they were looked for.
    [[nodiscard]] virtual const ToolkitHeaders& toolkit_headers() = 0;

    // Stage 3: loading onto a device, and launching there. A module and its functions belong to
    // the device they were loaded on; a launch runs on its stream's device.
    [[nodiscard]] virtual NativeModule load_module(int device, std::span<const char> image) = 0;
    virtual void unload_module(int device, NativeModule module) = 0;
    [[nodiscard]] virtual NativeFunction get_function(int device, NativeModule module,
                                                      const char* name) = 0;
    virtual void launch(NativeFunction function, const LaunchConfig& config, void** args) = 0;
    // All blocks resident at once, so they may synchronize with each other.
    virtual void launch_cooperative(NativeFunction function, const LaunchConfig& config,
                                    void** args) = 0;
    [[nodiscard]] virtual FunctionAttributes function_attributes(int device,
                                                                 NativeFunction function) = 0;
    virtual void set_function_attribute(int device, NativeFunction function,
                                        FunctionAttribute attribute, int value) = 0;
    [[nodiscard]] virtual int max_active_blocks_per_multiprocessor(int device,
                                                                   NativeFunction function,
                                                                   int block_size,
                                                                   std::size_t shared_mem) = 0;
    // A module's global variable on `device`: its address and size.
    [[nodiscard]] virtual std::pair<void*, std::size_t> get_global(int device, NativeModule module,
                                                                   const char* name) = 0;
};

// A compiled backend by its KILN_BACKEND name; NoDevice naming the compiled ones otherwise.
[[nodiscard]] BackendKind parse_backend(std::string_view name);

// Whether kiln destroyed this stream (after synchronizing it); see core/stream.cpp.
[[nodiscard]] bool stream_retired(StreamView stream);

// The active backend (see kiln::active_backend). Throws NoDevice when none was compiled in.
[[nodiscard]] Backend& backend();
// The calling thread's current device. A thread starts on the default device (KILN_DEVICE):
// its first call makes that current, and throws Error when KILN_DEVICE names no device.
[[nodiscard]] int current_device();
// Makes `device` current for the calling thread (instead of the default).
void set_current_device(int device);
// The default device: KILN_DEVICE, else 0 (not checked against the device count).
[[nodiscard]] int default_device_id();

// The one instance of a compiled backend, made on first use and never destroyed, whether or not it
// is the active one (kiln::show_config reports on each). Throws Error when it is not compiled in.
[[nodiscard]] Backend& backend_of(BackendKind kind);

// Why the active backend sees no device, or why the host backend runs the kernels ("" when a GPU
// backend sees a device). When no backend was named by KILN_BACKEND and none sees a device, the
// reason of each compiled backend, by name.
[[nodiscard]] std::string reason_for_no_device();

// Whether every vendor library of `backend` was loaded: it can compile, and run on a device.
[[nodiscard]] bool libraries_loaded(Backend& backend);

}  // namespace kiln::detail
