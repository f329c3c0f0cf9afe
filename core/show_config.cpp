// kiln::show_config: each section asks the piece of kiln that owns the fact (the registry, the
// backends, the disk cache), so the report says what kiln itself would do.
#include "backend.hpp"
#include "compile/cache_trust.hpp"
#include "compile/compile_cache.hpp"
#include "compile/disk_cache.hpp"
#include "env.hpp"

#include <kiln/backend.hpp>
#include <kiln/config.hpp>
#include <kiln/show_config.hpp>
#include <kiln/version.hpp>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX declares it nowhere

namespace kiln::detail {

namespace {

namespace fs = std::filesystem;

std::string gib(std::size_t bytes) {
    return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
}

void show_devices(std::ostream& out, Backend& backend, int count) {
    for (int device = 0; device < count; ++device) {
        try {
            const DeviceProperties p = backend.query_properties(device);
            fmt::print(out, "    device {}: {}, arch {}, {} memory, {} multiprocessors\n", device,
                       p.name, p.arch, gib(p.total_memory), p.multiprocessor_count);
        } catch (const std::exception& e) {
            fmt::print(out, "    device {}: cannot be queried: {}\n", device, e.what());
        }
    }
}

void show_backend(std::ostream& out, BackendKind kind, BackendKind active) {
    fmt::print(out, "  {}{}:", to_string(kind), kind == active ? " (active)" : "");
    try {
        Backend& backend = backend_of(kind);
        const int count = backend.device_count();
        if (count > 0) {
            fmt::print(out, " usable, {} device(s)\n", count);
        } else {
            fmt::print(out, " not usable: {}\n", backend.no_device_reason());
        }
        for (const VendorLibraryStatus& library : backend.libraries()) {
            fmt::print(out, "    {}: {}\n", library.name,
                       library.path.empty() ? "not loaded: " + library.reason : library.path);
        }
        if (libraries_loaded(backend)) {
            fmt::print(out, "    compiler: {}\n", backend.compiler_version());
        }
        show_devices(out, backend, count);
    } catch (const std::exception& e) {
        fmt::print(out, " cannot be asked: {}\n", e.what());
    }
}

void show_backends(std::ostream& out) {
    const auto kinds = compiled_backends();
    std::vector<std::string_view> names;
    names.reserve(kinds.size());
    for (BackendKind kind : kinds) {
        names.push_back(to_string(kind));
    }
    fmt::print(out, "backends compiled in: {}\n", fmt::join(names, ", "));
    BackendKind active = BackendKind::host;
    try {
        active = active_backend();
        fmt::print(out, "active backend: {}\n", to_string(active));
    } catch (const std::exception& e) {
        fmt::print(out, "active backend: none: {}\n", e.what());
    }
    for (BackendKind kind : kinds) {
        show_backend(out, kind, active);
    }
}

// The files under `directory` and their bytes; unreadable parts are skipped.
std::pair<std::size_t, std::uintmax_t> directory_size(const fs::path& directory) {
    std::size_t files = 0;
    std::uintmax_t bytes = 0;
    std::error_code error;
    for (fs::recursive_directory_iterator
             it(directory, fs::directory_options::skip_permission_denied, error),
         end;
         !error && it != end; it.increment(error)) {
        if (std::error_code size_error; it->is_regular_file(size_error)) {
            ++files;
            bytes += it->file_size(size_error);
        }
    }
    return {files, bytes};
}

double mebibytes(std::uintmax_t bytes) {
    return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

std::string limit_text(std::uintmax_t limit) {
    return limit == 0 ? std::string("no limit") : fmt::format("limit {:.1f} MiB", mebibytes(limit));
}

void show_memory_cache(std::ostream& out) {
    try {
        const auto usage = CompileCache::instance().memory_usage();
        fmt::print(out, "  in memory: {} binaries, {:.1f} MiB ({}, KILN_CACHE_MEMORY_LIMIT)\n",
                   usage.entries, mebibytes(usage.bytes), limit_text(usage.limit));
    } catch (const std::exception& e) {
        fmt::print(out, "  in memory: {}\n", e.what());
    }
}

void show_disk_usage(std::ostream& out, const DiskCache& cache) {
    const auto [files, bytes] = directory_size(cache.directory());
    fmt::print(out, "  size: {} files, {:.1f} MiB\n", files, mebibytes(bytes));
    const auto entries = disk_usage(cache.directory());
    fmt::print(out, "  entries: {} files, {:.1f} MiB ({}, KILN_CACHE_SIZE_LIMIT)\n", entries.files,
               mebibytes(entries.bytes), limit_text(cache.size_limit()));
}

std::optional<DiskCache> disk_cache_or_reason(std::ostream& out) {
    try {
        if (auto cache = DiskCache::from_environment()) {
            return cache;
        }
        fmt::print(out, "compile cache: in memory only ({})\n",
                   env::get("KILN_CACHE_IN_MEMORY") ? "KILN_CACHE_IN_MEMORY is set"
                                                    : "no KILN_CACHE_DIR, XDG_CACHE_HOME or HOME");
    } catch (const std::exception& e) {
        fmt::print(out, "compile cache: not usable: {}\n", e.what());
    }
    return std::nullopt;
}

void show_cache(std::ostream& out) {
    const auto cache = disk_cache_or_reason(out);
    if (!cache) {
        show_memory_cache(out);
        return;
    }
    const fs::path& directory = cache->directory();
    fmt::print(out, "compile cache: {}\n", directory.string());
    std::error_code error;
    if (auto reason = untrusted_directory(directory)) {
        fmt::print(out, "  not used: {}; kernels are cached in memory only\n", *reason);
    } else if (!fs::is_directory(directory, error)) {
        fmt::print(out, "  usable: not made yet (the first compile makes it)\n");
    } else if (::access(directory.c_str(), W_OK | X_OK) != 0) {
        fmt::print(out, "  read-only: {}; new kernels are not kept\n",
                   std::generic_category().message(errno));
    } else {
        fmt::print(out, "  usable: yes\n");
    }
    show_disk_usage(out, *cache);
    show_memory_cache(out);
}

// Variables kiln reads that do not start with KILN_: the vendor runtimes' and the toolkits'.
constexpr std::array<std::string_view, 11> other_variables{
    "CUDA_VISIBLE_DEVICES", "CUDA_LAUNCH_BLOCKING", "CUDA_PATH",           "CUDA_HOME", "NCCL_HOME",
    "HIP_VISIBLE_DEVICES",  "ROCR_VISIBLE_DEVICES", "HIP_LAUNCH_BLOCKING", "ROCM_PATH", "HIP_PATH",
    "XDG_CACHE_HOME"};

void show_environment(std::ostream& out) {
    std::vector<std::string> set;
    for (char** entry = environ; *entry != nullptr; ++entry) {
        const std::string_view text(*entry);
        const std::string_view name = text.substr(0, text.find('='));
        if (name.starts_with("KILN_") ||
            std::ranges::find(other_variables, name) != other_variables.end()) {
            set.emplace_back(text);
        }
    }
    std::ranges::sort(set);
    fmt::print(out, "environment:{}\n", set.empty() ? " none of kiln's variables is set" : "");
    for (const auto& variable : set) {
        fmt::print(out, "  {}\n", variable);
    }
}

}  // namespace

}  // namespace kiln::detail

namespace kiln {

void show_config(std::ostream& out) {
    fmt::print(out, "kiln {}\n", version());
    detail::show_backends(out);
    detail::show_cache(out);
    detail::show_environment(out);
}

}  // namespace kiln
