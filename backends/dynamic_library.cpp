#include "dynamic_library.hpp"

#include <dlfcn.h>
#include <link.h>

#include <utility>

namespace kiln::detail {

DynamicLibrary::DynamicLibrary(const std::string& file)
    // Bound now, so that a library missing something it needs fails here and not at a call.
    : handle_(dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    if (handle_ == nullptr) {
        const char* text = dlerror();  // NOLINT(concurrency-mt-unsafe): read right after dlopen
        error_ = text != nullptr ? text : file + ": cannot be opened";
    }
}

DynamicLibrary::DynamicLibrary(DynamicLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), error_(std::move(other.error_)) {}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept {
    if (this != &other) {
        DynamicLibrary old(std::move(*this));
        handle_ = std::exchange(other.handle_, nullptr);
        error_ = std::move(other.error_);
    }
    return *this;
}

DynamicLibrary::~DynamicLibrary() {
    if (handle_ != nullptr) {
        (void)dlclose(handle_);
    }
}

void* DynamicLibrary::symbol(const char* name) const noexcept {
    return handle_ != nullptr ? dlsym(handle_, name) : nullptr;
}

std::string DynamicLibrary::path() const {
    link_map* map = nullptr;
    if (handle_ == nullptr || dlinfo(handle_, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr ||
        map->l_name == nullptr) {
        return "";
    }
    return map->l_name;
}

}  // namespace kiln::detail
