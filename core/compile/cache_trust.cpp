#include "cache_trust.hpp"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <system_error>

namespace kiln::detail {

namespace {

std::string octal(unsigned mode) {
    std::array<char, 8> text{};
    (void)std::snprintf(text.data(), text.size(), "%04o", mode & 07777U);
    return text.data();
}

// The ownership and write permissions shared by directories and files.
std::optional<std::string> untrusted_owner_or_mode(const struct stat& status) {
    if (status.st_uid != ::geteuid()) {
        return "it belongs to user " + std::to_string(status.st_uid) + ", not to this user (" +
               std::to_string(::geteuid()) + ")";
    }
    if ((status.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        return "its group or others may write to it (mode " + octal(status.st_mode) + ")";
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> untrusted_directory(const std::filesystem::path& directory) {
    std::error_code error;
    const auto resolved = std::filesystem::canonical(directory, error);
    if (error == std::errc::no_such_file_or_directory || error == std::errc::not_a_directory) {
        return std::nullopt;
    }
    if (error) {
        return "it cannot be resolved: " + error.message();
    }
    const std::string target = resolved == std::filesystem::absolute(directory, error)
                                   ? std::string()
                                   : " (a link to '" + resolved.string() + "')";
    struct stat status {};
    if (::stat(resolved.c_str(), &status) != 0) {
        return "it cannot be examined: " + std::generic_category().message(errno);
    }
    if (!S_ISDIR(status.st_mode)) {
        return "it is not a directory" + target;
    }
    if (auto reason = untrusted_owner_or_mode(status)) {
        return *reason + target;
    }
    return std::nullopt;
}

std::optional<std::string> untrusted_file(const struct stat& status) {
    if (!S_ISREG(status.st_mode)) {
        return "it is not a regular file";
    }
    return untrusted_owner_or_mode(status);
}

}  // namespace kiln::detail
