// An exclusive lock on a cache directory, shared by every process that uses it: flock on a file
// named `lock` inside it, as Jitify2's file cache and ccache do. Entries are renamed into place
// and evicted under it, so the running total of the entries' sizes it keeps in the lock file
// stays right with several processes and a store need not list the directory. Reads need no
// lock: an open file outlives its unlinking.
#pragma once

#include <cstdint>
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

    // The entries' total size, and when (seconds since the epoch) the entries were last counted
    // rather than added up.
    struct Total {
        std::uint64_t bytes = 0;
        std::int64_t counted_at = 0;

        bool operator==(const Total&) const = default;
    };

    // The total last recorded; nothing when none was, or the record is damaged (a writer killed
    // mid-write), and then the caller counts the entries again.
    [[nodiscard]] std::optional<Total> recorded_total() const;
    // Records the total; a failure only leaves the next holder to count again.
    void record_total(const Total& total) const;

private:
    explicit CacheLock(int fd) noexcept : fd_(fd) {}

    int fd_;
};

}  // namespace kiln::detail
