// Loads tests/support/kernels.hpp's helper kernels on the current device and launches them on a
// stream with one thread.
#pragma once

#include "core/backend.hpp"
#include "core/compile/compile_cache.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/kernels.hpp"

#include <kiln/stream_view.hpp>

namespace kiln::test {

class TestKernels {
public:
    // The helpers on the current device.
    TestKernels() : device_(detail::backend().current_device()) {
        auto& gpu = detail::backend();
        const char* source = is_host() ? host_helper_source : helper_source;
        module_ =
            gpu.load_module(device_, detail::compile_uncached({source, "helpers", {}, {}}).image);
    }
    // A destructor cannot report: after a fault poisons the context, the driver refuses the
    // unload (cuModuleUnload does, under HIP on NVIDIA), and a throw here would terminate.
    ~TestKernels() {
        try {
            detail::backend().unload_module(device_, module_);
        } catch (...) {  // NOLINT(bugprone-empty-catch)
        }
    }
    TestKernels(const TestKernels&) = delete;
    TestKernels& operator=(const TestKernels&) = delete;
    TestKernels(TestKernels&&) = delete;
    TestKernels& operator=(TestKernels&&) = delete;

    void spin(StreamView stream, long long cycles) { launch("spin", stream, &cycles); }
    void store(StreamView stream, int* target, int value) {
        launch("store", stream, &target, &value);
    }
    void copy_int(StreamView stream, const int* source, int* target) {
        launch("copy_int", stream, &source, &target);
    }
    void increment(StreamView stream, int* target) { launch("increment", stream, &target); }
    void write_through(StreamView stream, int* target) { launch("write_through", stream, &target); }
    // Host backend only: a kernel that throws.
    void fail(StreamView stream, int* target) { launch("fail", stream, &target); }

private:
    template <class... Args>
    void launch(const char* name, StreamView stream, Args*... args) {
        auto& gpu = detail::backend();
        void* packed[] = {static_cast<void*>(args)...};
        gpu.launch(gpu.get_function(device_, module_, name),
                   {{1, 1, 1}, {1, 1, 1}, 0, StreamView{stream.native(), device_}}, packed);
    }

    int device_;
    detail::NativeModule module_;
};

// About `ms` milliseconds of spinning at the device's clock (2 GHz assumed; only an order of
// magnitude matters to the tests).
constexpr long long spin_cycles(double ms) {
    return static_cast<long long>(ms * 2.0e6);
}

}  // namespace kiln::test
