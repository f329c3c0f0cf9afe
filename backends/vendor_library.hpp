// A vendor library (NVRTC, the HIP runtime, HIPRTC, comgr) found and opened at run time, and the
// functions a backend calls in it. libkiln links none of them: a build carries every backend, a
// machine uses the backends whose libraries it has, and a missing library is a reason that
// reaches kiln::no_device_reason(), not a program that fails to start.
#pragma once

#include "dynamic_library.hpp"

#include <atomic>
#include <initializer_list>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln::detail {

class VendorLibrary;

// One function of a VendorLibrary, by its exported name. It registers with its library, so that
// loading the library resolves every function a backend calls at once: a missing one is a reason
// up front, not a failure in the middle of a run.
class LibrarySymbol {
public:
    LibrarySymbol(VendorLibrary& library, const char* name);

    // The exported name, which errors report; call<Table> reads it from an Entry and a Symbol.
    const char* name;  // NOLINT(cppcoreguidelines-non-private-member-variables-in-classes)

protected:
    // The function's address. Loads the library on first use; throws NoDevice naming the
    // library and where kiln looked when it is missing.
    [[nodiscard]] void* address() const {
        void* resolved = address_.load(std::memory_order_acquire);
        return resolved != nullptr ? resolved : resolve();
    }

private:
    friend class VendorLibrary;
    [[nodiscard]] void* resolve() const;

    VendorLibrary* library_;
    const LibrarySymbol* next_;
    mutable std::atomic<void*> address_{nullptr};
};

// A function of type `Function` (decltype(&vendor_function): the vendor's header still checks
// every call), called through the address resolved from its library.
template <class Function>
class Symbol final : public LibrarySymbol {
public:
    using LibrarySymbol::LibrarySymbol;

    template <class... Args>
    auto operator()(Args&&... args) const {
        return reinterpret_cast<Function>(address())(std::forward<Args>(args)...);
    }
};

// Where a library may be and what its files are called.
struct LibrarySearch {
    std::string what;                         // for messages: "NVRTC"
    std::vector<std::string> names;           // file names, most wanted first
    std::vector<const char*> root_variables;  // environment variables naming a toolkit root
    std::vector<std::string> roots;           // standard toolkit roots ("/usr/local/cuda")
    std::vector<std::string> subdirectories;  // where a root keeps libraries ("lib64", "lib")
    std::vector<std::string> directories;     // last: the toolkit this build was configured with
};

// "libnvrtc.so.13", "libnvrtc.so.12", ..., "libnvrtc.so": each major once, in the order given,
// then the unversioned name.
[[nodiscard]] std::vector<std::string> versioned_names(std::string_view base,
                                                       std::initializer_list<int> majors);

// A vendor library and the symbols registered with it. Search order: the directories in
// KILN_VENDOR_LIBRARY_PATH alone when it is set; otherwise each root named by an environment
// variable, the system's search (LD_LIBRARY_PATH, the loader's cache, the default directories),
// the standard roots, then the configured directories. In each place every name is tried; the
// first file that opens and exports every registered symbol is kept. Instances live until the
// process ends and never close their library, so no vendor code is unloaded during exit.
class VendorLibrary {
public:
    explicit VendorLibrary(LibrarySearch search);

    // Opens the library and resolves every registered symbol, once. Returns "" when all went
    // well, otherwise why not: the library, the names tried and every place looked in.
    const std::string& load();

    // The file the library was loaded from (a full path), or "" when it could not be loaded.
    // Toolkit headers are found beside it.
    [[nodiscard]] std::string path();

    [[nodiscard]] const std::string& what() const noexcept { return search_.what; }

private:
    friend class LibrarySymbol;
    struct Place {
        std::string directory;  // "" for the system's search
        std::string origin;     // the variable that named it, if any
    };

    [[nodiscard]] std::vector<Place> places() const;
    [[nodiscard]] std::string open();
    // The registered symbols `candidate` lacks, or "" after storing every address.
    [[nodiscard]] std::string resolve_all(const DynamicLibrary& candidate);
    [[nodiscard]] std::string not_found(const std::vector<Place>& looked,
                                        const std::vector<std::string>& problems) const;

    LibrarySearch search_;
    const LibrarySymbol* symbols_ = nullptr;
    std::once_flag loaded_;
    DynamicLibrary library_;
    std::string reason_;
};

}  // namespace kiln::detail
