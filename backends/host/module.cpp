#include "module.hpp"

#include "../../core/compile/compile_request.hpp"
#include "debug_files.hpp"
#include "system_error.hpp"

#include <kiln/error.hpp>

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <filesystem>

namespace kiln::detail::host {

namespace {

std::string dl_error() {
    const char* text = dlerror();  // NOLINT(concurrency-mt-unsafe): per thread in glibc
    return text != nullptr ? text : "unknown error";
}

// A file descriptor closed on every path out.
class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    ~FileDescriptor() {
        if (fd_ >= 0) {
            close(fd_);
        }
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    FileDescriptor(FileDescriptor&&) = delete;
    FileDescriptor& operator=(FileDescriptor&&) = delete;

    [[nodiscard]] int get() const noexcept { return fd_; }

private:
    int fd_;
};

void write_all(int fd, std::span<const char> bytes) {
    while (!bytes.empty()) {
        const ssize_t written = write(fd, bytes.data(), bytes.size());
        if (written < 0 && errno == EINTR) {
            continue;
        }
        if (written <= 0) {
            throw BackendError("write", errno, error_text(errno));
        }
        bytes = bytes.subspan(static_cast<std::size_t>(written));
    }
}

// The image in an anonymous memory file, executable (MFD_EXEC, where the kernel restricts memory
// files by default); -1 when the system has none. Its bytes are the ones kiln verified: no other
// process can reach the file, unlike one on a shared filesystem.
int memory_file(std::span<const char> image) {
    constexpr unsigned executable = 0x10U;  // MFD_EXEC (Linux 6.3), older headers lack it
    int fd = memfd_create("kiln-module", MFD_CLOEXEC | executable);
    if (fd < 0 && errno == EINVAL) {  // a kernel before 6.3: every memory file is executable
        fd = memfd_create("kiln-module", MFD_CLOEXEC);
    }
    if (fd < 0) {
        return -1;
    }
    try {
        write_all(fd, image);
    } catch (...) {
        close(fd);
        throw;
    }
    return fd;
}

// The temporary file's directory failed to load code: say where, and the usual cause.
std::string temporary_file_hint(const std::string& path) {
    return " (loading the module from '" + path +
           "' in TMPDIR; a filesystem mounted noexec cannot load code: set TMPDIR to one "
           "that can)";
}

}  // namespace

HostModule::HostModule(int device, std::span<const char> image) : device_(device) {
    const bool keep = compile_debug_requested();
    if (!keep) {
        memory_fd_ = memory_file(image);
        const std::string path = "/proc/self/fd/" + std::to_string(memory_fd_);
        if (memory_fd_ >= 0 && access(path.c_str(), R_OK) == 0) {
            handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (handle_ == nullptr) {
                const std::string error = dl_error();
                close(memory_fd_);
                throw BackendError("dlopen", 0, error);
            }
            return;
        }
        if (memory_fd_ >= 0) {  // no /proc: a temporary file after all
            close(memory_fd_);
            memory_fd_ = -1;
        }
    }
    // A name of its own for every module the process loads: dlopen returns the module already
    // loaded under a name rather than load another.
    static std::atomic<unsigned long long> loaded{0};
    std::string path = ((keep ? debug_directory() : std::filesystem::temp_directory_path()) /
                        ("kiln-module-" + std::to_string(getpid()) + "-" +
                         std::to_string(loaded.fetch_add(1)) + "-XXXXXX.so"))
                           .string();
    const FileDescriptor file(mkostemps(path.data(), 3, O_CLOEXEC));
    if (file.get() < 0) {
        throw BackendError("mkostemps", errno, error_text(errno) + temporary_file_hint(path));
    }
    try {
        write_all(file.get(), image);
    } catch (...) {
        unlink(path.c_str());
        throw;
    }
    handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    // Mapped now, or never: the file is not needed either way, but by a debugger.
    if (!keep || handle_ == nullptr) {
        unlink(path.c_str());
    }
    if (handle_ == nullptr) {
        throw BackendError("dlopen", 0, dl_error() + temporary_file_hint(path));
    }
}

HostModule::~HostModule() {
    dlclose(handle_);
    if (memory_fd_ < 0) {
        return;
    }
    // The module's name is its descriptor's number. While a module stays loaded under it (one
    // that cannot unload), the number stays taken, or the next module given it would be that one.
    const std::string path = "/proc/self/fd/" + std::to_string(memory_fd_);
    if (void* still = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD)) {
        dlclose(still);
        return;
    }
    close(memory_fd_);
}

HostFunction* HostModule::function(const std::string& name) {
    const std::scoped_lock lock(mutex_);
    if (auto found = functions_.find(name); found != functions_.end()) {
        return found->second.get();
    }
    const auto* descriptor = static_cast<const KernelDescriptor*>(
        dlsym(handle_, (std::string(kernel_symbol_prefix) + name).c_str()));
    if (descriptor == nullptr) {
        throw BackendError("dlsym", 0, "the module has no kernel named '" + name + "'");
    }
    if (descriptor->entry == nullptr) {
        throw BackendError("dlsym", 0, "'" + name + "' names no kernel of the module");
    }
    if (descriptor->abi != kernel_abi_version) {
        throw BackendError("dlsym", 0,
                           "kernel '" + name + "' was built for host kernel ABI " +
                               std::to_string(descriptor->abi) + ", this kiln expects " +
                               std::to_string(kernel_abi_version));
    }
    auto function = std::make_unique<HostFunction>(HostFunction{descriptor, name, this});
    return functions_.emplace(name, std::move(function)).first->second.get();
}

std::pair<void*, std::size_t> HostModule::global(const std::string& name) const {
    void* address = dlsym(handle_, name.c_str());
    if (address == nullptr) {
        throw BackendError("dlsym", 0, "the module has no global named '" + name + "'");
    }
    Dl_info info{};
    void* entry = nullptr;
    if (dladdr1(address, &info, &entry, RTLD_DL_SYMENT) == 0 || entry == nullptr) {
        throw BackendError("dladdr1", 0, "no symbol table entry for global '" + name + "'");
    }
    return {address, static_cast<const ElfW(Sym)*>(entry)->st_size};
}

}  // namespace kiln::detail::host
