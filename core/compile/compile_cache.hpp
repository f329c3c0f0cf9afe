// The compile cache: binaries by compile key, in this process's memory (least recently used out
// past KILN_CACHE_MEMORY_LIMIT), then on disk (unless KILN_CACHE_IN_MEMORY is set), then from the
// backend's compiler, with the counts kiln::compile_cache_statistics reports. One per process.
#pragma once

#include "../backend.hpp"
#include "binary_lru.hpp"
#include "compile_request.hpp"
#include "disk_cache.hpp"

#include <kiln/compile_cache.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace kiln::detail {

class CompileCache {
public:
    // The process's cache, its levels as the environment named them at first use.
    [[nodiscard]] static CompileCache& instance();

    // `memory_limit`: bytes of binaries kept in memory; 0 means no limit.
    explicit CompileCache(std::optional<DiskCache> disk,
                          std::size_t memory_limit = default_memory_cache_limit);

    // The binary for a resolved request: from memory, else from disk, else compiled (and then
    // stored on disk; a cache that cannot be written is only a slower next start).
    [[nodiscard]] CompiledBinary get(const CompileRequest& request);

    [[nodiscard]] CompileCacheStatistics statistics() const noexcept;
    void reset_statistics() noexcept;

    struct MemoryUsage {
        std::size_t entries;
        std::size_t bytes;
        std::size_t limit;
    };
    [[nodiscard]] MemoryUsage memory_usage() const;
    // Replaces KILN_CACHE_MEMORY_LIMIT's bound, evicting now what exceeds it.
    void set_memory_limit(std::size_t bytes);

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
    BinaryLru memory_;
    Counters counters_;
};

// `program` compiled for `target` (empty: the current device's) through the process's cache.
[[nodiscard]] CompiledBinary compile_cached(const Program& program, std::string_view target = {});

// `program` compiled for `target` by the active backend, bypassing the cache: for tests and tools
// that must see the compiler run.
[[nodiscard]] CompiledBinary compile_uncached(const Program& program, std::string_view target = {});

}  // namespace kiln::detail
