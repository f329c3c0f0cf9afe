// An exclusive lock on a cache directory, shared by every process that uses it: flock on a file
// named `lock` inside it, as Jitify2's file cache and ccache do. The lock orders evictions; reads
// and writes need none, since entries are renamed into place whole and an open file outlives
// its unlinking.
#pragma once

#include <filesystem>
#include <optional>

namespace kiln::detail {

class CacheLock {
public:
    // Blocks until this process holds the lock. Nothing when the lock file cannot be opened or
    // may not be trusted (a link, another user's, writable by others): the caller then skips
    // what needed the lock.
    [[nodiscard]] static std::optional<CacheLock> acquire(const std::filesystem::path& directory);

    ~CacheLock();
    CacheLock(const CacheLock&) = delete;
    CacheLock& operator=(const CacheLock&) = delete;
    CacheLock(CacheLock&& other) noexcept;
    CacheLock& operator=(CacheLock&&) = delete;

private:
    explicit CacheLock(int fd) noexcept : fd_(fd) {}

    int fd_;
};

}  // namespace kiln::detail
