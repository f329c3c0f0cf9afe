// Loading a kernel's shared object (the host backend's module) and finding its kernels and
// globals. The image is loaded from an anonymous memory file (memfd), kept open while the module
// is loaded: no filesystem is involved, so a noexec TMPDIR does not matter and no other process
// can change the bytes between kiln's checks and the load. Without memory files (no /proc) it
// goes through a temporary file in TMPDIR, unlinked once loaded; with KILN_COMPILE_DEBUG the
// file stays, in the debug directory, for a debugger to read.
#pragma once

#include "kernel_abi.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>

namespace kiln::detail::host {

class HostModule;

// A kernel of a loaded module: what NativeFunction points to.
struct HostFunction {
    const KernelDescriptor* descriptor = nullptr;
    std::string name;
    HostModule* module = nullptr;
};

// Shared: a queued launch holds its module, so that unloading it waits for the launches still
// to run (the code stays mapped until then).
class HostModule : public std::enable_shared_from_this<HostModule> {
public:
    // Throws BackendError naming dlopen's message when the image does not load.
    HostModule(int device, std::span<const char> image);
    ~HostModule();
    HostModule(const HostModule&) = delete;
    HostModule& operator=(const HostModule&) = delete;
    HostModule(HostModule&&) = delete;
    HostModule& operator=(HostModule&&) = delete;

    // The device it was loaded on: its kernels run on that device's streams only.
    [[nodiscard]] int device() const noexcept { return device_; }
    // The kernel `name`, looked up once; BackendError when the module has none, or its
    // descriptor is of another ABI version.
    [[nodiscard]] HostFunction* function(const std::string& name);
    // The global variable `name`: its address and size.
    [[nodiscard]] std::pair<void*, std::size_t> global(const std::string& name) const;

private:
    int device_;
    void* handle_ = nullptr;
    int memory_fd_ = -1;  // the memory file loaded, or -1
    std::mutex mutex_;
    std::map<std::string, std::unique_ptr<HostFunction>, std::less<>> functions_;
};

}  // namespace kiln::detail::host
