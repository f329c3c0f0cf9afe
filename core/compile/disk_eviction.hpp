// The disk cache's bound: its entries' total size stays under a limit by deleting the least
// recently used (by modification time, which a hit refreshes), under the directory's lock so
// that processes sharing the cache evict in turn. Only kiln's own entries count and are ever
// deleted: regular files of this user's named <key>.bin or <key>.cu in a folder named by the
// key's first two digits. Links, other users' files, and anything else (host-prelude/, the lock,
// a writer's temporary file) are left alone.
#pragma once

#include <cstdint>
#include <filesystem>

namespace kiln::detail {

// KILN_CACHE_SIZE_LIMIT's default. A few thousand kernels fit; ccache's 5 GB default serves
// whole builds, and CuPy's cache is unbounded.
inline constexpr std::uint64_t default_disk_cache_limit = std::uint64_t{1} << 30U;

struct DiskUsage {
    std::uint64_t files = 0;
    std::uint64_t bytes = 0;
};

// The entries in `directory` and their total size.
[[nodiscard]] DiskUsage disk_usage(const std::filesystem::path& directory);

// Deletes entries, least recently used first, until at most `limit` bytes remain. Does nothing
// when the lock cannot be taken; errors only leave more behind.
void evict_least_recently_used(const std::filesystem::path& directory, std::uint64_t limit);

// Sets the entry's modification time to now, so eviction sees it as just used. Never follows a
// link; failure is ignored (the entry is only evicted sooner).
void mark_used(const std::filesystem::path& entry);

}  // namespace kiln::detail
