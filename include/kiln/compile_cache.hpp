/// @file
/// kiln's compile cache: kernels compiled at run time are kept in memory for the process and on
/// disk for later processes, so each (source, options, target, compiler) is compiled once.
/// The disk level lives in KILN_CACHE_DIR, else $XDG_CACHE_HOME/kiln, else $HOME/.cache/kiln;
/// KILN_CACHE_IN_MEMORY (any non-empty value) turns it off. A directory that is not the user's, or
/// that others may write to (through links too), is not used: kiln warns once on stderr and keeps
/// kernels in memory only; files in it that are not the user's are ignored.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

namespace kiln {

/// Process-wide counts since the start or the last reset (all threads together).
struct CompileCacheStatistics {
    std::uint64_t memory_hits = 0;  ///< kernels found already compiled in this process
    std::uint64_t disk_hits = 0;    ///< code objects read back from the disk cache
    std::uint64_t disk_misses = 0;  ///< disk lookups that found nothing usable (corrupt included)
    /// Cache files rejected: bad magic, version, size or checksum.
    std::uint64_t corrupt_files = 0;
    std::uint64_t compiles = 0;    ///< runs of NVRTC or HIPRTC
    double compile_seconds = 0.0;  ///< wall time spent in those runs
};

/// The counts so far.
[[nodiscard]] CompileCacheStatistics compile_cache_statistics();
/// Sets every count to 0.
void reset_compile_cache_statistics();

/// The disk cache's directory as the environment names it now (it may not exist yet), or nothing
/// when the cache is in memory only (KILN_CACHE_IN_MEMORY, no variable names a home, or the
/// directory is not trusted).
[[nodiscard]] std::optional<std::filesystem::path> compile_cache_directory();

}  // namespace kiln
