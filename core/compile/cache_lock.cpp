#include "cache_lock.hpp"

#include "cache_trust.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace kiln::detail {

std::optional<CacheLock> CacheLock::acquire(const std::filesystem::path& directory) {
    const auto path = directory / "lock";
    // O_NOFOLLOW: a link planted in the lock's place is refused, never followed.
    const int fd =
        ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
    if (fd < 0) {
        return std::nullopt;
    }
    CacheLock lock(fd);
    struct stat status {};
    if (::fstat(fd, &status) != 0 || untrusted_file(status)) {
        return std::nullopt;
    }
    int result = 0;
    do {
        result = ::flock(fd, LOCK_EX);
    } while (result != 0 && errno == EINTR);
    if (result != 0) {
        return std::nullopt;
    }
    return lock;
}

CacheLock::~CacheLock() {
    if (fd_ >= 0) {
        (void)::close(fd_);  // releases the flock
    }
}

CacheLock::CacheLock(CacheLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

}  // namespace kiln::detail
