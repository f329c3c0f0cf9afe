// The Backend implementation shared by CUDA and HIP. Their runtime APIs mirror each other, so one
// template runs over a table of either's entry points; every CUDA run on a real GPU therefore
// exercises the logic the HIP backend uses.
#pragma once

#include "../core/backend.hpp"
#include "compiler.hpp"
#include "entry.hpp"

#include <mutex>
#include <string>

namespace kiln::detail {

template <class Api>
class Runtime final : public Backend {
public:
    [[nodiscard]] BackendKind kind() const noexcept override { return Api::kind; }

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
        call<Api>(Api::get_device_properties, &prop, device);
        DeviceProperties out;
        out.name.assign(&prop.name[0]);
        out.arch = Api::arch(prop);
        out.multiprocessor_count = prop.multiProcessorCount;
        out.warp_size = prop.warpSize;
        out.max_threads_per_block = prop.maxThreadsPerBlock;
        out.total_memory = prop.totalGlobalMem;
        out.shared_memory_per_block = prop.sharedMemPerBlock;
        out.shared_memory_per_block_optin = Api::shared_memory_optin(prop);
        set_device(device);
        call<Api>(Api::stream_priority_range, &out.least_stream_priority,
                  &out.greatest_stream_priority);
        return out;
    }

    void set_device(int device) override { call<Api>(Api::set_device, device); }
    void synchronize_device() override { call<Api>(Api::device_synchronize); }

    [[nodiscard]] void* allocate(std::size_t bytes) override {
        void* ptr = nullptr;
        call<Api>(Api::malloc, &ptr, bytes);
        return ptr;
    }
    void deallocate(void* ptr) override { call<Api>(Api::free, ptr); }
    void copy(void* dst, const void* src, std::size_t bytes) override {
        call<Api>(Api::memcpy, dst, src, bytes, Api::memcpy_default);
    }

    [[nodiscard]] std::vector<std::string> supported_targets() override {
        return detail::supported_targets<typename Api::Rtc>();
    }

    [[nodiscard]] CompiledBinary compile(const CompileRequest& request) override {
        std::string target = request.target;
        if (target.empty()) {
            int device = 0;
            call<Api>(Api::get_device, &device);
            target = Device(device).properties().arch;
        }
        return detail::compile<typename Api::Rtc>(request, target);
    }

    [[nodiscard]] NativeModule load_module(std::span<const char> image) override {
        typename Api::module_t module{};
        call<Api>(Api::load_module, &module, image.data());
        return static_cast<NativeModule>(module);
    }
    void unload_module(NativeModule module) override {
        call<Api>(Api::unload_module, static_cast<typename Api::module_t>(module));
    }
    [[nodiscard]] NativeFunction get_function(NativeModule module, const char* name) override {
        typename Api::function_t function{};
        call<Api>(Api::get_function, &function, static_cast<typename Api::module_t>(module), name);
        return static_cast<NativeFunction>(function);
    }
    void launch(NativeFunction function, const LaunchConfig& config, void** args) override {
        call<Api>(Api::launch, static_cast<typename Api::function_t>(function), config, args);
    }

private:
    // A missing driver or device is an answer, not a failure: count 0 and keep the reason.
    void discover() {
        std::call_once(discovered_, [this] {
            int count = 0;
            const auto rc = Api::get_device_count(&count);
            if (rc != Api::success) {
                reason_ = std::string(Api::get_device_count.name) + ": " + Api::error_text(rc);
                count = 0;
            } else if (count == 0) {
                reason_ = std::string(Api::get_device_count.name) + " found no device";
            }
            count_ = count;
        });
    }

    std::once_flag discovered_;
    int count_ = 0;
    std::string reason_;
};

}  // namespace kiln::detail
