#include "disk_eviction.hpp"

#include "cache_lock.hpp"
#include "cache_tree.hpp"
#include "cache_trust.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <vector>

namespace kiln::detail {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t key_size = 64;

struct StoredEntry {
    fs::path path;
    struct timespec used {};
    std::uint64_t size = 0;
    bool tree = false;
};

bool is_hex(std::string_view text) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// <64 hex digits>.bin or .cu, in the folder named by its first two digits.
bool is_entry_name(std::string_view folder, std::string_view name) {
    const auto dot = name.find('.');
    if (dot != key_size || !is_hex(name.substr(0, dot)) || !name.starts_with(folder)) {
        return false;
    }
    const auto extension = name.substr(dot);
    return extension == ".bin" || extension == ".cu";
}

// A writer's temporary file (disk_cache.cpp names them .<entry>.tmp.<writer>).
bool is_temporary_name(std::string_view name) {
    return name.starts_with('.') && name.find(".tmp.") != std::string_view::npos;
}

bool is_stale(const struct stat& status) {
    return std::time(nullptr) - status.st_mtim.tv_sec >
           std::chrono::duration_cast<std::chrono::seconds>(stale_temporary_age).count();
}

// This user's regular files, examined without following links.
bool own_regular_file(const fs::path& path, struct stat& status) {
    return ::lstat(path.c_str(), &status) == 0 && !untrusted_file(status);
}

// This user's directories, not links to one.
bool own_directory(const fs::path& path, struct stat& status) {
    return ::lstat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode) &&
           status.st_uid == ::geteuid();
}

// What listing a directory does besides listing: nothing, or also removing stale temporaries.
enum class Leftovers { keep, remove };

void list_folder(const fs::path& folder, Leftovers leftovers, std::vector<StoredEntry>& entries) {
    std::error_code error;
    const auto folder_name = folder.filename().string();
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
        const auto name = it->path().filename().string();
        struct stat status {};
        if (!own_regular_file(it->path(), status)) {
            continue;
        }
        if (is_entry_name(folder_name, name)) {
            entries.push_back(
                {it->path(), status.st_mtim, static_cast<std::uint64_t>(status.st_size), false});
        } else if (leftovers == Leftovers::remove && is_temporary_name(name) && is_stale(status)) {
            (void)::unlink(it->path().c_str());
        }
    }
}

// Trees are directories named by their key; anything else in trees/ is a tree being built, or
// being removed, and is removed once stale.
void list_trees(const fs::path& folder, Leftovers leftovers, std::vector<StoredEntry>& entries) {
    std::error_code error;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
        const auto name = it->path().filename().string();
        struct stat status {};
        if (!own_directory(it->path(), status)) {
            continue;
        }
        if (name.size() == key_size && is_hex(name)) {
            entries.push_back({it->path(), status.st_mtim, tree_size(it->path()), true});
        } else if (leftovers == Leftovers::remove && is_stale(status)) {
            std::error_code ignored;
            fs::remove_all(it->path(), ignored);
        }
    }
}

std::vector<StoredEntry> list_entries(const fs::path& directory, Leftovers leftovers) {
    std::vector<StoredEntry> entries;
    std::error_code error;
    for (fs::directory_iterator it(directory, error), end; !error && it != end;
         it.increment(error)) {
        const auto name = it->path().filename().string();
        struct stat status {};
        // A link named like a folder is not entered.
        if (name.size() == 2 && is_hex(name) && own_directory(it->path(), status)) {
            list_folder(it->path(), leftovers, entries);
        }
    }
    struct stat status {};
    if (const auto trees = tree_folder(directory); own_directory(trees, status)) {
        list_trees(trees, leftovers, entries);
    }
    return entries;
}

bool remove_entry(const StoredEntry& entry) {
    if (entry.tree) {
        return remove_unused_tree(entry.path);
    }
    // unlink removes a name, never what a link points to; a name already gone was evicted or
    // replaced by another process, and counts as freed either way.
    (void)::unlink(entry.path.c_str());
    return true;
}

// The full pass, with the lock held.
void evict_with_lock(const CacheLock& lock, const fs::path& directory, std::uint64_t limit) {
    auto entries = list_entries(directory, Leftovers::remove);
    std::uint64_t total = 0;
    for (const auto& entry : entries) {
        total += entry.size;
    }
    if (total > limit) {
        std::sort(entries.begin(), entries.end(), [](const StoredEntry& a, const StoredEntry& b) {
            return std::tie(a.used.tv_sec, a.used.tv_nsec, a.path) <
                   std::tie(b.used.tv_sec, b.used.tv_nsec, b.path);
        });
        for (const auto& entry : entries) {
            if (total <= limit) {
                break;
            }
            if (remove_entry(entry)) {  // a tree in use stays, and counts
                total -= entry.size;
            }
        }
    }
    lock.record_total({total, std::time(nullptr)});
}

}  // namespace

DiskUsage disk_usage(const fs::path& directory) {
    DiskUsage usage;
    for (const auto& entry : list_entries(directory, Leftovers::keep)) {
        ++usage.files;
        usage.bytes += entry.size;
    }
    return usage;
}

void evict_least_recently_used(const fs::path& directory, std::uint64_t limit) {
    if (const auto lock = CacheLock::acquire(directory)) {
        evict_with_lock(*lock, directory, limit);
    }
}

bool place_entry(const fs::path& directory, std::uint64_t limit,
                 const std::function<std::optional<std::int64_t>()>& place) {
    const auto bound = limit == 0 ? std::numeric_limits<std::uint64_t>::max() : limit;
    const auto lock = CacheLock::acquire(directory);
    const auto added = place();
    if (!lock || !added) {
        return added.has_value();
    }
    const auto recorded = lock->recorded_total();
    // Counted again at least once per stale_temporary_age, so that a dead writer's leftovers go
    // even from a cache that never fills.
    const auto age = std::chrono::duration_cast<std::chrono::seconds>(stale_temporary_age).count();
    const auto now = std::time(nullptr);
    if (!recorded || now - recorded->counted_at > age || recorded->counted_at > now) {
        evict_with_lock(*lock, directory, bound);
        return true;
    }
    // A total that drifted (entries deleted by hand) is only a hint: the full pass corrects it.
    const auto total = *added < 0 ? recorded->bytes - std::min(recorded->bytes,
                                                               static_cast<std::uint64_t>(-*added))
                                  : recorded->bytes + static_cast<std::uint64_t>(*added);
    if (total > bound) {
        evict_with_lock(*lock, directory, bound);
    } else {
        lock->record_total({total, recorded->counted_at});
    }
    return true;
}

void mark_used(const fs::path& entry) {
    (void)::utimensat(AT_FDCWD, entry.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);
}

}  // namespace kiln::detail
