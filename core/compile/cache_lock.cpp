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
constexpr std::string_view counted_prefix = " counted ";

// Parses all of `text` as a decimal integer.
template <typename Integer>
std::optional<Integer> parse_integer(std::string_view text) {
    Integer value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

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

std::optional<CacheLock::Total> CacheLock::recorded_total() const {
    std::array<char, 96> buffer{};
    const ssize_t got = ::pread(fd_, buffer.data(), buffer.size(), 0);
    if (got <= 0) {
        return std::nullopt;
    }
    const std::string_view text(buffer.data(), static_cast<std::size_t>(got));
    if (!text.starts_with(total_prefix) || !text.ends_with('\n')) {
        return std::nullopt;
    }
    const auto fields = text.substr(total_prefix.size(), text.size() - total_prefix.size() - 1);
    const auto split = fields.find(counted_prefix);
    if (split == std::string_view::npos) {
        return std::nullopt;
    }
    const auto bytes = parse_integer<std::uint64_t>(fields.substr(0, split));
    const auto counted_at =
        parse_integer<std::int64_t>(fields.substr(split + counted_prefix.size()));
    if (!bytes || !counted_at) {
        return std::nullopt;
    }
    return Total{*bytes, *counted_at};
}

void CacheLock::record_total(const Total& total) const {
    const std::string text = std::string(total_prefix) + std::to_string(total.bytes) +
                             std::string(counted_prefix) + std::to_string(total.counted_at) + "\n";
    // Cut first: a shorter record written over a longer one must not keep the longer one's tail.
    if (::ftruncate(fd_, 0) == 0) {
        (void)::pwrite(fd_, text.data(), text.size(), 0);
    }
}

CacheLock::CacheLock(CacheLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

}  // namespace kiln::detail
