// A tree entry of the disk cache: a directory of files named by its key, <cache>/trees/<key>/,
// for what is more than one file (the host's precompiled prelude). It is built aside, renamed into
// place whole (DiskCache::adopt_tree), counted toward the size limit and evicted least recently
// used like a file entry, except while a process holds it: a lease is a shared flock on the
// directory, and eviction takes the exclusive one without waiting and skips a tree it cannot get.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <utility>

namespace kiln::detail {

// The folder of tree entries in a cache directory.
[[nodiscard]] std::filesystem::path tree_folder(const std::filesystem::path& cache);

// The bytes of this user's regular files below `tree` (links are not followed).
[[nodiscard]] std::uint64_t tree_size(const std::filesystem::path& tree);

class TreeLease {
public:
    // Holds the tree at `place` in use and marks it used; nothing when there is none there (it
    // was evicted, or never built), it is a link, or it is not this user's.
    [[nodiscard]] static std::optional<TreeLease> acquire(const std::filesystem::path& place);

    ~TreeLease();
    TreeLease(const TreeLease&) = delete;
    TreeLease& operator=(const TreeLease&) = delete;
    TreeLease(TreeLease&& other) noexcept;
    TreeLease& operator=(TreeLease&&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
    // Which directory is held (device and inode): a tree evicted and built again is another.
    [[nodiscard]] std::pair<std::uint64_t, std::uint64_t> identity() const;
    // The lease follows its directory through a rename: a tree leased while it was built aside
    // stays leased once adopted, so the eviction that adoption runs cannot take it.
    void moved_to(std::filesystem::path place) { path_ = std::move(place); }

private:
    TreeLease(int fd, std::filesystem::path path) noexcept : fd_(fd), path_(std::move(path)) {}

    int fd_;
    std::filesystem::path path_;
};

// Takes the tree at `place` for eviction: renames it out of its place and removes it, unless a
// lease holds it. False when it is in use or could not be moved.
bool remove_unused_tree(const std::filesystem::path& place);

}  // namespace kiln::detail
