// The Backend implementation shared by CUDA and HIP. Their runtime APIs mirror each other, so one
// template runs over a table of either's entry points; every CUDA run on a real GPU therefore
// exercises the logic the HIP backend uses.
#pragma once

#include "../core/backend.hpp"
#include "collectives.hpp"
#include "compiler.hpp"
#include "device_faults.hpp"
#include "entry.hpp"
#include "vendor_library.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kiln::detail {

template <class Api>
class Runtime final : public Backend {
public:
    [[nodiscard]] BackendKind kind() const noexcept override { return Api::kind; }

    [[nodiscard]] std::vector<VendorLibraryStatus> libraries() override {
        std::vector<VendorLibraryStatus> out;
        for (VendorLibrary* library : Api::libraries()) {
            const std::string& reason = library->load();
            out.push_back({library->what(), library->path(), reason});
        }
        return out;
    }

    [[nodiscard]] int device_count() override {
        discover();
        return count_;
    }

    [[nodiscard]] std::string no_device_reason() override {
        discover();
        return reason_;
    }

    [[nodiscard]] DeviceProperties query_properties(int device) override {
        typename Api::device_prop_t prop{};
        check(Api::get_device_properties, &prop, device);
        DeviceProperties out;
        out.name.assign(&prop.name[0]);
        out.arch = Api::arch(prop);
        out.multiprocessor_count = prop.multiProcessorCount;
        out.warp_size = prop.warpSize;
        out.max_threads_per_block = prop.maxThreadsPerBlock;
        out.total_memory = prop.totalGlobalMem;
        out.shared_memory_per_block = prop.sharedMemPerBlock;
        out.shared_memory_per_block_optin = Api::shared_memory_optin(prop);
        on_device(device, [&] {
            check(Api::stream_priority_range, &out.least_stream_priority,
                  &out.greatest_stream_priority);
        });
        return out;
    }

    [[nodiscard]] int current_device() override {
        if (device_count() == 0) {
            throw NoDevice("kiln: no device: " + reason_for_no_device());
        }
        int device = 0;
        check(Api::get_device, &device);
        return device;
    }
    void set_device(int device) override { check(Api::set_device, device); }
    void synchronize_device(int device) override {
        on_device(device, [] { check(Api::device_synchronize); });
    }

    [[nodiscard]] bool can_access_peer(int device, int peer) override {
        int can = 0;
        check(Api::device_can_access_peer, &can, device, peer);
        return can != 0;
    }
    void enable_peer_access(int device, int peer) override {
        const auto rc =
            on_device(device, [peer] { return Api::device_enable_peer_access(peer, 0U); });
        if (rc == Api::peer_access_already_enabled) {
            (void)Api::get_last_error();  // clears the sticky "already enabled"
            return;
        }
        if (rc != Api::success) {
            fail(Api::device_enable_peer_access.name, rc);
        }
    }

    [[nodiscard]] bool supports_memory_pools(int device) override {
        int supported = 0;
        check(Api::device_attribute, &supported, Api::attribute_memory_pools, device);
        return supported != 0;
    }

    [[nodiscard]] std::pair<std::size_t, std::size_t> memory_info(int device) override {
        std::size_t free = 0;
        std::size_t total = 0;
        on_device(device, [&] { check(Api::memory_info, &free, &total); });
        return {free, total};
    }

    [[nodiscard]] void* allocate(int device, std::size_t bytes) override {
        void* ptr = nullptr;
        on_device(device, [&] { check_allocation(device, Api::malloc, bytes, &ptr, bytes); });
        return ptr;
    }
    void deallocate(int device, void* ptr) override {
        on_device(device, [ptr] { check(Api::free, ptr); });
    }
    [[nodiscard]] void* allocate_async(std::size_t bytes, StreamView stream) override {
        void* ptr = nullptr;
        on_device(stream.device(), [&] {
            check_allocation(stream.device(), Api::malloc_async, bytes, &ptr, bytes,
                             native(stream));
        });
        return ptr;
    }
    void deallocate_async(void* ptr, StreamView stream) override {
        on_device(stream.device(), [&] { check(Api::free_async, ptr, native(stream)); });
    }
    [[nodiscard]] void* allocate_pinned(std::size_t bytes) override {
        void* ptr = nullptr;
        check_allocation(StreamView::any_device, Api::malloc_pinned, bytes, &ptr, bytes);
        return ptr;
    }
    void deallocate_pinned(void* ptr) override { check(Api::free_pinned, ptr); }
    void copy(void* dst, const void* src, std::size_t bytes) override {
        check(Api::memcpy, dst, src, bytes, Api::memcpy_default);
    }
    void copy_async(void* dst, const void* src, std::size_t bytes, StreamView stream) override {
        on_device(stream.device(), [&] {
            check(Api::memcpy_async, dst, src, bytes, Api::memcpy_default, native(stream));
        });
    }
    void fill_bytes_async(void* dst, int value, std::size_t bytes, StreamView stream) override {
        on_device(stream.device(),
                  [&] { check(Api::memset_async, dst, value, bytes, native(stream)); });
    }

    [[nodiscard]] NativeStream create_stream(int device, bool non_blocking, int priority) override {
        typename Api::stream_t stream{};
        on_device(device, [&] {
            check(Api::stream_create, &stream, non_blocking ? Api::stream_non_blocking : 0U,
                  priority);
        });
        return stream;
    }
    void destroy_stream(StreamView stream) override {
        on_device(stream.device(), [&] { check(Api::stream_destroy, native(stream)); });
    }
    [[nodiscard]] NativeStream per_thread_stream() const noexcept override {
        return Api::per_thread_stream();
    }
    void synchronize_stream(StreamView stream) override {
        on_device(stream.device(), [&] { check(Api::stream_synchronize, native(stream)); });
    }
    [[nodiscard]] bool stream_done(StreamView stream) override {
        return on_device(stream.device(), [&] { return query(Api::stream_query, native(stream)); });
    }
    void stream_wait_event(StreamView stream, NativeEvent event) override {
        on_device(stream.device(),
                  [&] { check(Api::stream_wait_event, native(stream), native_event(event), 0U); });
    }
    void launch_host_func(StreamView stream, std::function<void()> function) override {
        auto owned = std::make_unique<std::function<void()>>(std::move(function));
        on_device(stream.device(),
                  [&] { check(Api::launch_host_func, native(stream), owned.get()); });
        (void)owned.release();  // the trampoline deletes it after running it
    }

    [[nodiscard]] NativeEvent create_event(int device, EventFlags flags) override {
        unsigned native_flags = 0;
        native_flags |= flags.block ? Api::event_blocking_sync : 0U;
        native_flags |= flags.disable_timing ? Api::event_disable_timing : 0U;
        native_flags |= flags.interprocess ? Api::event_interprocess : 0U;
        typename Api::event_t event{};
        on_device(device, [&] { check(Api::event_create, &event, native_flags); });
        return event;
    }
    void destroy_event(NativeEvent event) override {
        check(Api::event_destroy, native_event(event));
    }
    void record_event(NativeEvent event, StreamView stream) override {
        on_device(stream.device(),
                  [&] { check(Api::event_record, native_event(event), native(stream)); });
    }
    void synchronize_event(NativeEvent event) override {
        check(Api::event_synchronize, native_event(event));
    }
    [[nodiscard]] bool event_done(NativeEvent event) override {
        return query(Api::event_query, native_event(event));
    }
    [[nodiscard]] float elapsed_ms(NativeEvent start, NativeEvent end) override {
        float ms = 0.0F;
        check(Api::event_elapsed_time, &ms, native_event(start), native_event(end));
        return ms;
    }

    void range_push(const char* name) noexcept override { Api::range_push(name); }
    void range_pop() noexcept override { Api::range_pop(); }

    void begin_capture(StreamView stream) override {
        on_device(stream.device(),
                  [&] { check(Api::begin_capture, native(stream), Api::capture_mode_relaxed); });
    }
    [[nodiscard]] NativeGraph end_capture(StreamView stream) override {
        return on_device(stream.device(), [&] {
            typename Api::graph_t graph{};
            check(Api::end_capture, native(stream), &graph);
            typename Api::graph_exec_t exec{};
            const auto rc = Api::graph_instantiate(&exec, graph);
            check(Api::graph_destroy, graph);
            if (rc != Api::success) {
                fail(Api::graph_instantiate.name, rc);
            }
            return static_cast<NativeGraph>(exec);
        });
    }
    void launch_graph(NativeGraph graph, StreamView stream) override {
        on_device(stream.device(), [&] {
            check(Api::graph_launch, static_cast<typename Api::graph_exec_t>(graph),
                  native(stream));
        });
    }
    void destroy_graph(NativeGraph graph) override {
        check(Api::graph_exec_destroy, static_cast<typename Api::graph_exec_t>(graph));
    }

    [[nodiscard]] bool blas_gemm(const GemmCall& call) override {
        const int device = stream_device(call.stream);
        return on_device(device, [&] { return Api::Blas::gemm(call, device); });
    }
    [[nodiscard]] std::size_t blas_workspace_bytes(int device) override {
        int major = 0;
        check(Api::device_attribute, &major, Api::attribute_compute_major, device);
        return Api::Blas::workspace_bytes(major);
    }

    [[nodiscard]] Collectives& collectives() override {
        return nccl_collectives<typename Api::Nccl>();
    }

    [[nodiscard]] std::vector<std::string> supported_targets() override {
        return detail::supported_targets<typename Api::Rtc>();
    }
    [[nodiscard]] std::string compiler_version() override {
        return detail::compiler_version<typename Api::Rtc>();
    }

    [[nodiscard]] const ToolkitHeaders& toolkit_headers() override {
        return Api::Rtc::toolkit_headers();
    }

    [[nodiscard]] CompiledBinary compile(const CompileRequest& request) override {
        return detail::compile<typename Api::Rtc>(request);
    }

    [[nodiscard]] NativeModule load_module(int device, std::span<const char> image) override {
        typename Api::module_t module{};
        on_device(device, [&] { check(Api::load_module, &module, image.data()); });
        return static_cast<NativeModule>(module);
    }
    void unload_module(int device, NativeModule module) override {
        on_device(device,
                  [&] { check(Api::unload_module, static_cast<typename Api::module_t>(module)); });
    }
    [[nodiscard]] NativeFunction get_function(int device, NativeModule module,
                                              const char* name) override {
        typename Api::function_t function{};
        on_device(device, [&] {
            check(Api::get_function, &function, static_cast<typename Api::module_t>(module), name);
        });
        faults().name_function(static_cast<NativeFunction>(function), name);
        return static_cast<NativeFunction>(function);
    }
    void launch(NativeFunction function, const LaunchConfig& config, void** args) override {
        on_device(config.stream.device(), [&] {
            faults().record_launch(stream_device(config.stream), function, config);
            check(Api::launch, static_cast<typename Api::function_t>(function), config, args);
        });
    }
    void launch_cooperative(NativeFunction function, const LaunchConfig& config,
                            void** args) override {
        if constexpr (Api::supports_cooperative_launch) {
            on_device(config.stream.device(), [&] {
                faults().record_launch(stream_device(config.stream), function, config);
                check(Api::launch_cooperative, static_cast<typename Api::function_t>(function),
                      config, args);
            });
        } else {
            throw Error(std::string("kiln: cooperative launch of run-time compiled kernels is not "
                                    "supported by this ") +
                        std::string(to_string(Api::kind)) + " runtime");
        }
    }
    [[nodiscard]] FunctionAttributes function_attributes(int device,
                                                         NativeFunction function) override {
        FunctionAttributes attributes;
        on_device(device, [&] {
            check(Api::function_attributes, &attributes,
                  static_cast<typename Api::function_t>(function));
        });
        return attributes;
    }
    void set_function_attribute(int device, NativeFunction function, FunctionAttribute attribute,
                                int value) override {
        on_device(device, [&] {
            check(Api::set_function_attribute, static_cast<typename Api::function_t>(function),
                  attribute, value);
        });
    }
    [[nodiscard]] int max_active_blocks_per_multiprocessor(int device, NativeFunction function,
                                                           int block_size,
                                                           std::size_t shared_mem) override {
        int blocks = 0;
        on_device(device, [&] {
            check(Api::occupancy, &blocks, static_cast<typename Api::function_t>(function),
                  block_size, shared_mem);
        });
        return blocks;
    }
    [[nodiscard]] std::pair<void*, std::size_t> get_global(int device, NativeModule module,
                                                           const char* name) override {
        void* address = nullptr;
        std::size_t bytes = 0;
        on_device(device, [&] {
            check(Api::get_global, &address, &bytes, static_cast<typename Api::module_t>(module),
                  name);
        });
        return {address, bytes};
    }

private:
    static DeviceFaults& faults() {
        static DeviceFaults log(Api::runtime_name, Api::launch_blocking_variable);
        return log;
    }
    // Calls a runtime entry; a failure is a BackendError naming it, or a DeviceFault where the
    // device's context is lost.
    template <class E, class... Args>
    static void check(const E& entry, Args&&... args) {
        const auto rc = entry(std::forward<Args>(args)...);
        if (rc != Api::success) {
            fail(entry.name, rc);
        }
    }
    template <class Rc>
    [[noreturn]] static void fail(const char* call, Rc rc) {
        if (Api::loses_context(rc)) {
            int device = 0;
            (void)Api::get_device(&device);
            faults().raise(device, call, static_cast<int>(rc), Api::error_text(rc));
        }
        throw BackendError(call, static_cast<int>(rc), Api::error_text(rc));
    }

    static typename Api::stream_t native(StreamView stream) {
        return static_cast<typename Api::stream_t>(stream.native());
    }

    // The one place a device is made current: `body` runs under `device` (any_device: under
    // whichever is current), and the caller's device is restored after, even when it throws.
    template <class Body>
    static decltype(auto) on_device(int device, Body&& body) {
        if (device == StreamView::any_device) {
            return body();
        }
        int previous = 0;
        check(Api::get_device, &previous);
        if (previous == device) {
            return body();
        }
        check(Api::set_device, device);
        const Restore restore(previous);
        return body();
    }
    class Restore {
    public:
        explicit Restore(int device) : device_(device) {}
        Restore(const Restore&) = delete;
        Restore& operator=(const Restore&) = delete;
        Restore(Restore&&) = delete;
        Restore& operator=(Restore&&) = delete;
        ~Restore() { (void)Api::set_device(device_); }

    private:
        int device_;
    };
    int stream_device(StreamView stream) {
        return stream.device() == StreamView::any_device ? current_device() : stream.device();
    }
    static typename Api::event_t native_event(NativeEvent event) {
        return static_cast<typename Api::event_t>(event);
    }

    // Stream and event queries answer "not ready" with an error code that is no error.
    template <class E, class... Args>
    static bool query(const E& entry, Args... args) {
        const auto rc = entry(args...);
        if (rc == Api::not_ready) {
            return false;
        }
        if (rc != Api::success) {
            fail(entry.name, rc);
        }
        return true;
    }

    // A full device is OutOfMemory with the device's figures, not a generic BackendError.
    template <class E, class... Args>
    void check_allocation(int device, const E& entry, std::size_t bytes, Args... args) {
        const auto rc = entry(args...);
        if (rc == Api::out_of_memory) {
            (void)Api::get_last_error();  // clear the non-sticky error for later calls
            const auto [free, total] = memory_info(device);
            // Pinned memory (any_device) is the host's, of no one device.
            throw OutOfMemory(
                bytes, total - free, total,
                device == StreamView::any_device ? std::nullopt : std::optional<int>(device));
        }
        if (rc != Api::success) {
            fail(entry.name, rc);
        }
    }

    // A missing library, driver or device is an answer, not a failure: count 0 and keep the
    // reason. Every library is loaded, and every function resolved, here.
    void discover() {
        // Asked by every device query: once it ran, the flag spares call_once's per-thread setup.
        if (discovered_.load(std::memory_order_acquire)) {
            return;
        }
        std::call_once(discover_once_, [this] {
            for (VendorLibrary* library : Api::libraries()) {
                if (const std::string& why = library->load(); !why.empty()) {
                    reason_ += (reason_.empty() ? "" : "; ") + why;
                }
            }
            if (!reason_.empty()) {
                return;
            }
            int count = 0;
            const auto rc = Api::get_device_count(&count);
            if (rc != Api::success) {
                reason_ =
                    std::string(Api::get_device_count.name) + ": " + Api::device_count_error(rc);
                count = 0;
            } else if (count == 0) {
                reason_ = std::string(Api::get_device_count.name) + " found no device";
            }
            count_ = count;
        });
        discovered_.store(true, std::memory_order_release);
    }

    std::once_flag discover_once_;
    std::atomic<bool> discovered_{false};
    int count_ = 0;
    std::string reason_;
};

}  // namespace kiln::detail
