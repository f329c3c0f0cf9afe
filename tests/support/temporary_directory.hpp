// A fresh directory for one test, removed with everything in it afterwards.
#pragma once

#include <gtest/gtest.h>

#include <stdlib.h>  // NOLINT(modernize-deprecated-headers): mkdtemp is POSIX

#include <filesystem>
#include <string>
#include <system_error>

namespace kiln::test {

class TemporaryDirectory {
public:
    // Named `prefix` and six random characters, in the system's temporary directory.
    explicit TemporaryDirectory(const std::string& prefix) {
        std::string pattern = (std::filesystem::temp_directory_path() / prefix).string() + "XXXXXX";
        EXPECT_NE(mkdtemp(pattern.data()), nullptr) << pattern;
        path_ = pattern;
    }
    ~TemporaryDirectory() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TemporaryDirectory(const TemporaryDirectory&) = delete;
    TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
    TemporaryDirectory(TemporaryDirectory&&) = delete;
    TemporaryDirectory& operator=(TemporaryDirectory&&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace kiln::test
