#include "cache_lock.hpp"

#include "cache_trust.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <string>
#include <string_view>
#include <utility>

namespace kiln::detail {

namespace {

// The record's form: a torn or foreign content fails to parse rather than read as a number.
constexpr std::string_view total_prefix = "kiln cache total ";

}  // namespace

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

std::optional<std::uint64_t> CacheLock::recorded_total() const {
    std::array<char, 64> buffer{};
    const ssize_t got = ::pread(fd_, buffer.data(), buffer.size(), 0);
    if (got <= 0) {
        return std::nullopt;
    }
    const std::string_view text(buffer.data(), static_cast<std::size_t>(got));
    if (!text.starts_with(total_prefix) || !text.ends_with('\n')) {
        return std::nullopt;
    }
    const auto digits = text.substr(total_prefix.size(), text.size() - total_prefix.size() - 1);
    std::uint64_t total = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), total);
    if (error != std::errc() || end != digits.data() + digits.size() || digits.empty()) {
        return std::nullopt;
    }
    return total;
}

void CacheLock::record_total(std::uint64_t bytes) const {
    const std::string text = std::string(total_prefix) + std::to_string(bytes) + "\n";
    // Cut first: a shorter record written over a longer one must not keep the longer one's tail.
    if (::ftruncate(fd_, 0) == 0) {
        (void)::pwrite(fd_, text.data(), text.size(), 0);
    }
}

CacheLock::CacheLock(CacheLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

}  // namespace kiln::detail
