// The host backend: kiln's device is this machine's CPU. Device memory is aligned host memory,
// streams are queues run by worker threads, and kernels are shared objects the system C++
// compiler builds from kiln's host dialect.
#include "../../core/backend.hpp"
#include "../../core/env.hpp"
#include "collectives_slot.hpp"
#include "compiler.hpp"
#include "cpu.hpp"
#include "event.hpp"
#include "launch.hpp"
#include "memory.hpp"
#include "module.hpp"
#include "streams.hpp"
#include "thread_pool.hpp"

#include <kiln/error.hpp>

#include <cstring>
#include <exception>
#include <memory>
#include <utility>
#include <vector>

namespace kiln::detail {

namespace {

using host::HostEvent;
using host::HostFunction;
using host::HostModule;

// A captured stream's work, replayed in order on the stream it is launched on.
// A captured graph's tasks, shared with its launches still queued.
struct HostGraph {
    std::shared_ptr<const std::vector<host::Task>> tasks;
};

// Runs a graph's tasks in order. Like a stream, it runs the tasks after a failed one, and the
// first failure is the one reported.
void run_graph(const std::vector<host::Task>& tasks) {
    std::exception_ptr first;
    for (const auto& task : tasks) {
        try {
            task();
        } catch (...) {
            if (!first) {
                first = std::current_exception();
            }
        }
    }
    if (first) {
        std::rethrow_exception(first);
    }
}

// The host backend's devices: one, or KILN_HOST_DEVICES of them. They share the CPU and its
// memory, so that multi-device code, and its tests, run on any machine. A bad setting is no
// device, with the reason.
struct HostDevices {
    int count = 1;
    std::string reason;
};

const HostDevices& host_devices() {
    static const HostDevices devices = [] {
        HostDevices d;
        const auto text = env::get("KILN_HOST_DEVICES");
        if (!text) {
            return d;
        }
        constexpr int most = 64;
        try {
            d.count = env::parse_index("KILN_HOST_DEVICES", *text);
        } catch (const Error&) {
            d.count = 0;
        }
        if (d.count < 1 || d.count > most) {
            d.count = 0;
            d.reason = "KILN_HOST_DEVICES is '" + std::string(*text) +
                       "': expected a number of devices from 1 to " + std::to_string(most);
        }
        return d;
    }();
    return devices;
}

thread_local int current_host_device = 0;

class HostRuntime final : public Backend {
public:
    [[nodiscard]] BackendKind kind() const noexcept override { return BackendKind::host; }

    [[nodiscard]] std::vector<VendorLibraryStatus> libraries() override {
        const auto& compiler = host::host_compiler();
        return {{"C++ compiler", compiler.path, compiler.reason}};
    }

    [[nodiscard]] int device_count() override {
        return host::host_compiler().path.empty() ? 0 : host_devices().count;
    }
    [[nodiscard]] std::string no_device_reason() override {
        const std::string& compiler = host::host_compiler().reason;
        return compiler.empty() ? host_devices().reason : compiler;
    }

    [[nodiscard]] DeviceProperties query_properties(int device) override {
        check_device(device);
        DeviceProperties p;
        p.name = host::cpu_name();
        p.arch = "native";
        p.multiprocessor_count = host::ThreadPool::instance().threads();
        p.warp_size = 32;
        p.max_threads_per_block = 1024;
        p.total_memory = host::memory_info().second;
        p.shared_memory_per_block = host::shared_memory_per_block;
        p.shared_memory_per_block_optin = host::shared_memory_per_block;
        return p;
    }
    [[nodiscard]] int current_device() override {
        if (device_count() == 0) {
            throw NoDevice("kiln: no device: " + reason_for_no_device());
        }
        return current_host_device;
    }
    void set_device(int device) override {
        check_device(device);
        current_host_device = device;
    }
    // The devices share their streams' workers, so each waits for all of them.
    void synchronize_device(int device) override {
        check_device(device);
        streams_.synchronize_all();
    }

    // Every host device addresses the others' memory: it is all the same memory. The tests
    // declare them unreachable (KILN_HOST_PEER_ACCESS=0) to check that kiln refuses then.
    [[nodiscard]] bool can_access_peer(int device, int peer) override {
        check_device(device);
        check_device(peer);
        const auto setting = env::get("KILN_HOST_PEER_ACCESS");
        return device != peer && (!setting || *setting != "0");
    }
    void enable_peer_access(int device, int peer) override {
        if (!can_access_peer(device, peer)) {
            throw BackendError("enable_peer_access", invalid_value,
                               "host device " + std::to_string(device) + " cannot access device " +
                                   std::to_string(peer) + " (KILN_HOST_PEER_ACCESS=0)");
        }
    }

    [[nodiscard]] bool supports_memory_pools(int /*device*/) override { return false; }
    [[nodiscard]] std::pair<std::size_t, std::size_t> memory_info(int device) override {
        check_device(device);
        return host::memory_info();
    }

    [[nodiscard]] void* allocate(int device, std::size_t bytes) override {
        check_device(device);
        return host::allocate(bytes);
    }
    // As cudaFree, after the work already queued, which may still read the memory: a pool hands
    // chunks back while a kernel it freed them after may still run.
    void deallocate(int /*device*/, void* ptr) override {
        streams_.wait_all();
        host::deallocate(ptr);
    }
    [[nodiscard]] void* allocate_async(std::size_t bytes, StreamView /*stream*/) override {
        return host::allocate(bytes);
    }
    void deallocate_async(void* ptr, StreamView stream) override {
        (void)streams_.push(stream.native(), [ptr] { host::deallocate(ptr); });
    }
    [[nodiscard]] void* allocate_pinned(std::size_t bytes) override {
        return host::allocate(bytes);
    }
    void deallocate_pinned(void* ptr) override { host::deallocate(ptr); }
    // Ordered like cudaMemcpy: after the legacy stream's work, and so every blocking stream's.
    void copy(void* dst, const void* src, std::size_t bytes) override {
        copy_async(dst, src, bytes, StreamView{});
        streams_.synchronize(nullptr);
    }
    // Empty copies and fills may name null pointers, which memmove and memset must not get.
    void copy_async(void* dst, const void* src, std::size_t bytes, StreamView stream) override {
        (void)streams_.push(stream.native(), [=] {
            if (bytes > 0) {
                std::memmove(dst, src, bytes);
            }
        });
    }
    void fill_bytes_async(void* dst, int value, std::size_t bytes, StreamView stream) override {
        (void)streams_.push(stream.native(), [=] {
            if (bytes > 0) {
                std::memset(dst, value, bytes);
            }
        });
    }

    [[nodiscard]] NativeStream create_stream(int device, bool non_blocking,
                                             int /*priority*/) override {
        check_device(device);
        return streams_.create(device, non_blocking);
    }
    void destroy_stream(StreamView stream) override { streams_.destroy(stream.native()); }
    [[nodiscard]] NativeStream per_thread_stream() const noexcept override {
        return host::Streams::per_thread_handle();
    }
    void synchronize_stream(StreamView stream) override {
        (void)device_of(stream);
        streams_.synchronize(stream.native());
    }
    [[nodiscard]] bool stream_done(StreamView stream) override {
        const auto queue = streams_.queue(stream.native());
        return queue->done(queue->last());
    }
    void stream_wait_event(StreamView stream, NativeEvent event) override {
        host_event(event).make_wait(streams_, stream.native());
    }
    void launch_host_func(StreamView stream, std::function<void()> function) override {
        (void)streams_.push(stream.native(), std::move(function));
    }

    [[nodiscard]] NativeEvent create_event(int device, EventFlags flags) override {
        if (flags.interprocess) {
            throw Error("kiln: Event: the host backend has no interprocess events");
        }
        check_device(device);
        return new HostEvent(device, flags);
    }
    void destroy_event(NativeEvent event) override { delete &host_event(event); }
    // As CUDA does, an event is recorded only on its own device's streams.
    void record_event(NativeEvent event, StreamView stream) override {
        HostEvent& host = host_event(event);
        const int device = device_of(stream);
        if (host.device() != device) {
            throw BackendError("record_event", invalid_resource_handle,
                               "an event of host device " + std::to_string(host.device()) +
                                   " recorded on a stream of device " + std::to_string(device));
        }
        host.record(streams_, stream.native());
    }
    void synchronize_event(NativeEvent event) override { host_event(event).synchronize(); }
    [[nodiscard]] bool event_done(NativeEvent event) override { return host_event(event).done(); }
    [[nodiscard]] float elapsed_ms(NativeEvent start, NativeEvent end) override {
        return HostEvent::elapsed_ms(host_event(start), host_event(end));
    }

    void range_push(const char* /*name*/) noexcept override {}
    void range_pop() noexcept override {}

    void begin_capture(StreamView stream) override {
        if (stream.is_default()) {
            throw Error("kiln: begin_capture: the legacy default stream cannot be captured");
        }
        streams_.queue(stream.native())->begin_capture(stream.native());
    }
    [[nodiscard]] NativeGraph end_capture(StreamView stream) override {
        return new HostGraph{std::make_shared<const std::vector<host::Task>>(
            streams_.queue(stream.native())->end_capture())};
    }
    // One task, as a GPU launches a graph as one operation of its stream: no other thread's work
    // lands between the graph's tasks.
    void launch_graph(NativeGraph graph, StreamView stream) override {
        (void)streams_.push(stream.native(),
                            [tasks = static_cast<HostGraph*>(graph)->tasks] { run_graph(*tasks); });
    }
    void destroy_graph(NativeGraph graph) override { delete static_cast<HostGraph*>(graph); }

    [[nodiscard]] bool blas_gemm(const GemmCall& /*call*/) override { return false; }
    [[nodiscard]] std::size_t blas_workspace_bytes(int /*device*/) override { return 0; }

    [[nodiscard]] Collectives& collectives() override { return host::installed_collectives(); }

    [[nodiscard]] std::vector<std::string> supported_targets() override { return {"native"}; }
    [[nodiscard]] std::string compiler_version() override { return host::host_compiler_identity(); }
    [[nodiscard]] CompiledBinary compile(const CompileRequest& request) override {
        if (request.target != "native") {
            throw Error("kiln: cannot compile kernel '" + std::string(request.kernel) +
                        "': target '" + request.target +
                        "' is not supported by the host backend; supported: native");
        }
        return host::compile_shared_object(request);
    }
    [[nodiscard]] const ToolkitHeaders& toolkit_headers() override {
        static const ToolkitHeaders none;
        return none;
    }

    // A module's handle is its owner: unloading drops it, and the module goes once no queued
    // launch needs it.
    [[nodiscard]] NativeModule load_module(int device, std::span<const char> image) override {
        check_device(device);
        return new std::shared_ptr<HostModule>(std::make_shared<HostModule>(device, image));
    }
    void unload_module(int /*device*/, NativeModule module) override {
        delete &host_module(module);
    }
    [[nodiscard]] NativeFunction get_function(int /*device*/, NativeModule module,
                                              const char* name) override {
        return host_module(module)->function(name);
    }
    // As on a GPU, a module loaded on one device has no kernels on another device's streams.
    void launch(NativeFunction function, const LaunchConfig& config, void** args) override {
        auto& host = *static_cast<HostFunction*>(function);
        const int device = device_of(config.stream);
        if (host.module->device() != device) {
            throw BackendError("launch", invalid_resource_handle,
                               "kernel '" + host.name + "' of a module loaded on host device " +
                                   std::to_string(host.module->device()) +
                                   " launched on a stream of device " + std::to_string(device));
        }
        host::launch(streams_, host, config, args);
    }
    // The blocks of a cooperative launch must all run at once: one per pool thread at most.
    // There is no grid-wide barrier to wait at (cooperative groups are a toolkit header).
    void launch_cooperative(NativeFunction function, const LaunchConfig& config,
                            void** args) override {
        const auto blocks =
            static_cast<unsigned long long>(config.grid.x) * config.grid.y * config.grid.z;
        const auto resident =
            static_cast<unsigned long long>(host::ThreadPool::instance().threads());
        if (blocks > resident) {
            throw Error("kiln: cooperative launch of kernel '" +
                        static_cast<HostFunction*>(function)->name + "': its " +
                        std::to_string(blocks) + " blocks cannot all run at once on the host, " +
                        "which runs " + std::to_string(resident) +
                        " (one per thread, KILN_HOST_THREADS)");
        }
        launch(function, config, args);
    }
    [[nodiscard]] FunctionAttributes function_attributes(int /*device*/,
                                                         NativeFunction /*function*/) override {
        FunctionAttributes attributes;
        attributes.max_threads_per_block = 1024;
        attributes.max_dynamic_shared_size_bytes = static_cast<int>(host::shared_memory_per_block);
        return attributes;
    }
    void set_function_attribute(int /*device*/, NativeFunction /*function*/,
                                FunctionAttribute /*attribute*/, int /*value*/) override {}
    [[nodiscard]] int max_active_blocks_per_multiprocessor(int /*device*/,
                                                           NativeFunction /*function*/,
                                                           int /*block_size*/,
                                                           std::size_t /*shared_mem*/) override {
        return 1;
    }
    [[nodiscard]] std::pair<void*, std::size_t> get_global(int /*device*/, NativeModule module,
                                                           const char* name) override {
        return host_module(module)->global(name);
    }

private:
    static HostEvent& host_event(NativeEvent event) { return *static_cast<HostEvent*>(event); }
    static std::shared_ptr<HostModule>& host_module(NativeModule module) {
        return *static_cast<std::shared_ptr<HostModule>*>(module);
    }

    // CUDA's codes for the same faults, so that messages read alike.
    static constexpr int invalid_value = 1;
    static constexpr int invalid_resource_handle = 400;

    // The device a stream belongs to: a created stream's own, else the view's, else the current.
    int device_of(StreamView stream) {
        const int made_on = streams_.device(stream.native());
        if (made_on >= 0) {
            if (stream.device() != StreamView::any_device && stream.device() != made_on) {
                throw BackendError("stream", invalid_resource_handle,
                                   "a stream of host device " + std::to_string(made_on) +
                                       " named as one of device " +
                                       std::to_string(stream.device()));
            }
            return made_on;
        }
        return stream.device() == StreamView::any_device ? current_host_device : stream.device();
    }

    void check_device(int device) {
        const int count = device_count();
        if (device < 0 || device >= count) {
            throw Error("kiln: the host backend has " + std::to_string(count) +
                        " device(s) (KILN_HOST_DEVICES); asked for device " +
                        std::to_string(device));
        }
    }

    host::Streams streams_;
};

}  // namespace

std::unique_ptr<Backend> make_host_backend() {
    return std::make_unique<HostRuntime>();
}

}  // namespace kiln::detail
