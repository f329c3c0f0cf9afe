// The compile cache: binaries by compile key, in this process's memory, then on disk (unless
// KILN_CACHE_IN_MEMORY is set), then from the backend's compiler, with the counts
// kiln::compile_cache_statistics reports. One per process.
#pragma once

#include "../backend.hpp"
#include "compile_request.hpp"
#include "disk_cache.hpp"

#include <kiln/compile_cache.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace kiln::detail {

class CompileCache {
public:
    // The process's cache, its disk level as the environment named it at first use.
    [[nodiscard]] static CompileCache& instance();

    explicit CompileCache(std::optional<DiskCache> disk);

    // The binary for a resolved request: from memory, else from disk, else compiled (and then
    // stored on disk; a cache that cannot be written is only a slower next start).
    [[nodiscard]] CompiledBinary get(const CompileRequest& request);

    [[nodiscard]] CompileCacheStatistics statistics() const noexcept;
    void reset_statistics() noexcept;

private:
    struct Counters {
        std::atomic<std::uint64_t> memory_hits{0};
        std::atomic<std::uint64_t> disk_hits{0};
        std::atomic<std::uint64_t> disk_misses{0};
        std::atomic<std::uint64_t> corrupt_files{0};
        std::atomic<std::uint64_t> compiles{0};
        std::atomic<double> compile_seconds{0.0};
    };

    [[nodiscard]] std::optional<CompiledBinary> from_disk(const CompileRequest& request);
    [[nodiscard]] CompiledBinary from_compiler(const CompileRequest& request);

    std::optional<DiskCache> disk_;
    mutable std::mutex mutex_;
    std::map<std::string, CompiledBinary, std::less<>> memory_;
    Counters counters_;
};

// `program` compiled for `target` (empty: the current device's) through the process's cache.
[[nodiscard]] CompiledBinary compile_cached(const Program& program, std::string_view target = {});

// `program` compiled for `target` by the active backend, bypassing the cache: for tests and tools
// that must see the compiler run.
[[nodiscard]] CompiledBinary compile_uncached(const Program& program, std::string_view target = {});

}  // namespace kiln::detail
