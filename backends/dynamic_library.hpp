// An open shared library: an RAII handle over dlopen/dlsym. Vendor libraries are opened through
// VendorLibrary (vendor_library.hpp), which keeps them open until the process ends.
#pragma once

#include <string>

namespace kiln::detail {

class DynamicLibrary {
public:
    DynamicLibrary() = default;
    // Opens `file`: a path, or a bare file name for the system's own search (LD_LIBRARY_PATH,
    // the loader's cache, the default directories). On failure the handle is empty and error()
    // says why, in the system loader's words.
    explicit DynamicLibrary(const std::string& file);
    DynamicLibrary(const DynamicLibrary&) = delete;
    DynamicLibrary& operator=(const DynamicLibrary&) = delete;
    DynamicLibrary(DynamicLibrary&& other) noexcept;
    DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
    ~DynamicLibrary();

    [[nodiscard]] explicit operator bool() const noexcept { return handle_ != nullptr; }
    [[nodiscard]] const std::string& error() const noexcept { return error_; }

    // The address of the exported symbol `name`, or null when the library has none.
    [[nodiscard]] void* symbol(const char* name) const noexcept;

    // The file the system loader opened (a full path when found through a search), or "" when
    // the handle is empty.
    [[nodiscard]] std::string path() const;

private:
    void* handle_ = nullptr;
    std::string error_;
};

}  // namespace kiln::detail
