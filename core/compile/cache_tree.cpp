#include "cache_tree.hpp"

#include "disk_eviction.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <system_error>
#include <utility>

namespace kiln::detail {

namespace {

namespace fs = std::filesystem;

int open_directory(const fs::path& place) {
    return ::open(place.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

bool lock(int fd, int operation) {
    int result = 0;
    do {
        result = ::flock(fd, operation);
    } while (result != 0 && errno == EINTR);
    return result == 0;
}

// Whether `place` still names the directory open as `fd`: an evicted tree is renamed away before
// its lock is released, so a lease taken on it afterwards must not count.
bool still_in_place(int fd, const fs::path& place) {
    struct stat opened {};
    struct stat named {};
    return ::fstat(fd, &opened) == 0 && ::lstat(place.c_str(), &named) == 0 &&
           opened.st_dev == named.st_dev && opened.st_ino == named.st_ino &&
           opened.st_uid == ::geteuid();
}

}  // namespace

fs::path tree_folder(const fs::path& cache) {
    return cache / "trees";
}

std::uint64_t tree_size(const fs::path& tree) {
    std::uint64_t bytes = 0;
    std::error_code error;
    for (fs::recursive_directory_iterator it(tree, error), end; !error && it != end;
         it.increment(error)) {
        struct stat status {};
        if (::lstat(it->path().c_str(), &status) == 0 && S_ISREG(status.st_mode) &&
            status.st_uid == ::geteuid()) {
            bytes += static_cast<std::uint64_t>(status.st_size);
        }
    }
    return bytes;
}

std::optional<TreeLease> TreeLease::acquire(const fs::path& place) {
    const int fd = open_directory(place);
    if (fd < 0) {
        return std::nullopt;
    }
    TreeLease lease(fd, place);
    if (!lock(fd, LOCK_SH) || !still_in_place(fd, place)) {
        return std::nullopt;
    }
    mark_used(place);
    return lease;
}

std::pair<std::uint64_t, std::uint64_t> TreeLease::identity() const {
    struct stat status {};
    if (::fstat(fd_, &status) != 0) {
        return {0, 0};
    }
    return {status.st_dev, status.st_ino};
}

TreeLease::~TreeLease() {
    if (fd_ >= 0) {
        (void)::close(fd_);  // releases the flock
    }
}

TreeLease::TreeLease(TreeLease&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

bool remove_unused_tree(const fs::path& place) {
    const int fd = open_directory(place);
    if (fd < 0) {
        return false;
    }
    bool removed = false;
    if (lock(fd, LOCK_EX | LOCK_NB) && still_in_place(fd, place)) {
        // Renamed first, under the lock: a process that opened it before sees, once it has its
        // lease, that the name no longer leads there.
        const auto aside = place.parent_path() / (".evicted." + place.filename().string() + "." +
                                                  std::to_string(::getpid()));
        removed = ::rename(place.c_str(), aside.c_str()) == 0;
        if (removed) {
            std::error_code ignored;
            fs::remove_all(aside, ignored);
        }
    }
    (void)::close(fd);
    return removed;
}

}  // namespace kiln::detail
