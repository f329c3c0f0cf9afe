// The disk cache's bound: its entries' total size stays under a limit by deleting the least
// recently used (by modification time, which a hit refreshes), under the directory's lock so
// that processes sharing the cache evict in turn. Only kiln's own entries count and are ever
// deleted: regular files of this user's named <key>.bin or <key>.cu in a folder named by the
// key's first two digits, and this user's trees/<key> directories (cache_tree.hpp), unless in
// use. Links, other users' files, and anything else are left alone, but for a writer's leftovers:
// temporary files and unfinished trees older than an hour (a writer killed midway).
//
// Every entry is put in place under the lock, which keeps the running total (cache_lock.hpp): a
// store adds to it without listing the directory, which is listed again only when the total is
// missing, passes the limit, or was last counted more than stale_temporary_age ago.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>

namespace kiln::detail {

// KILN_CACHE_SIZE_LIMIT's default. A few thousand kernels fit; ccache's 5 GB default serves
// whole builds, and CuPy's cache is unbounded.
inline constexpr std::uint64_t default_disk_cache_limit = std::uint64_t{1} << 30U;

// How old a temporary file or unfinished tree is before eviction takes it for a dead writer's:
// far longer than any write or prelude build takes.
inline constexpr std::chrono::hours stale_temporary_age{1};

struct DiskUsage {
    std::uint64_t files = 0;  // a tree counts as one
    std::uint64_t bytes = 0;
};

// The entries in `directory` and their total size.
[[nodiscard]] DiskUsage disk_usage(const std::filesystem::path& directory);

// Lists the directory, removes stale temporaries, then deletes entries, least recently used
// first, until at most `limit` bytes remain, and records the total. Does nothing
// when the lock cannot be taken; errors only leave more behind.
void evict_least_recently_used(const std::filesystem::path& directory, std::uint64_t limit);

// Under the lock, runs `place`, which puts one entry in place and returns the bytes it added less
// those it replaced (nothing when it failed), adds them to the recorded total, and runs the full
// pass instead when the total passes `limit` (0: no limit), was not recorded, or is stale. Without
// the lock, `place` runs alone. Returns whether `place` succeeded.
bool place_entry(const std::filesystem::path& directory, std::uint64_t limit,
                 const std::function<std::optional<std::int64_t>()>& place);

// Sets the entry's modification time to now, so eviction sees it as just used. Never follows a
// link; failure is ignored (the entry is only evicted sooner).
void mark_used(const std::filesystem::path& entry);

}  // namespace kiln::detail
