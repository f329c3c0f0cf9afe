#include "disk_eviction.hpp"

#include "cache_lock.hpp"
#include "cache_trust.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <vector>

namespace kiln::detail {

namespace {

namespace fs = std::filesystem;

struct StoredFile {
    fs::path path;
    struct timespec used {};
    std::uint64_t size = 0;
};

bool is_hex(std::string_view text) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// <64 hex digits>.bin or .cu, in the folder named by its first two digits.
bool is_entry_name(std::string_view folder, std::string_view name) {
    constexpr std::size_t key_size = 64;
    const auto dot = name.find('.');
    if (dot != key_size || !is_hex(name.substr(0, dot)) || !name.starts_with(folder)) {
        return false;
    }
    const auto extension = name.substr(dot);
    return extension == ".bin" || extension == ".cu";
}

// This user's regular files, examined without following links.
bool own_regular_file(const fs::path& path, struct stat& status) {
    return ::lstat(path.c_str(), &status) == 0 && !untrusted_file(status);
}

void list_folder(const fs::path& folder, std::vector<StoredFile>& files) {
    std::error_code error;
    const auto folder_name = folder.filename().string();
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
        const auto name = it->path().filename().string();
        struct stat status {};
        if (is_entry_name(folder_name, name) && own_regular_file(it->path(), status)) {
            files.push_back(
                {it->path(), status.st_mtim, static_cast<std::uint64_t>(status.st_size)});
        }
    }
}

std::vector<StoredFile> list_entries(const fs::path& directory) {
    std::vector<StoredFile> files;
    std::error_code error;
    for (fs::directory_iterator it(directory, error), end; !error && it != end;
         it.increment(error)) {
        const auto name = it->path().filename().string();
        struct stat status {};
        // symlink_status-style check: a link named like a folder is not entered.
        if (name.size() == 2 && is_hex(name) && ::lstat(it->path().c_str(), &status) == 0 &&
            S_ISDIR(status.st_mode) && status.st_uid == ::geteuid()) {
            list_folder(it->path(), files);
        }
    }
    return files;
}

}  // namespace

DiskUsage disk_usage(const fs::path& directory) {
    DiskUsage usage;
    for (const auto& file : list_entries(directory)) {
        ++usage.files;
        usage.bytes += file.size;
    }
    return usage;
}

void evict_least_recently_used(const fs::path& directory, std::uint64_t limit) {
    const auto lock = CacheLock::acquire(directory);
    if (!lock) {
        return;
    }
    auto files = list_entries(directory);
    std::uint64_t total = 0;
    for (const auto& file : files) {
        total += file.size;
    }
    if (total <= limit) {
        return;
    }
    std::sort(files.begin(), files.end(), [](const StoredFile& a, const StoredFile& b) {
        return std::tie(a.used.tv_sec, a.used.tv_nsec, a.path) <
               std::tie(b.used.tv_sec, b.used.tv_nsec, b.path);
    });
    for (const auto& file : files) {
        if (total <= limit) {
            break;
        }
        // unlink removes a name, never what a link points to; a name already gone was evicted
        // or replaced by another process, and counts as freed either way.
        (void)::unlink(file.path.c_str());
        total -= file.size;
    }
}

void mark_used(const fs::path& entry) {
    (void)::utimensat(AT_FDCWD, entry.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);
}

}  // namespace kiln::detail
