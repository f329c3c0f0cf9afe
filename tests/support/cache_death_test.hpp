// A compile cache directory of one test, shared with the processes its death tests start (each
// step of such a test runs in a fresh process, as a user's next program run would).
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace kiln::test {

// The cache's entry files (*.bin) below `dir`.
inline std::vector<std::filesystem::path> cache_files(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        if (entry.is_regular_file() && entry.path().extension() == ".bin") {
            files.push_back(entry.path());
        }
    }
    return files;
}

class CacheDirectoryDeathTest : public testing::Test {
protected:
    // The test's process makes the directory; the processes it starts inherit it through the
    // environment and must leave it alone.
    void SetUp() override {
        GTEST_FLAG_SET(death_test_style, "threadsafe");
        if (const char* inherited = std::getenv("KILN_TEST_CACHE_DIR")) {
            dir_ = inherited;
            return;
        }
        dir_ = std::filesystem::temp_directory_path() /
               ("kiln-cache-test-" + std::to_string(::getpid()) + "-" +
                testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(dir_);
        setenv("KILN_TEST_CACHE_DIR", dir_.c_str(), 1);
        setenv("KILN_CACHE_DIR", dir_.c_str(), 1);
        unsetenv("KILN_CACHE_IN_MEMORY");
        owner_ = true;
    }
    void TearDown() override {
        if (owner_) {
            unsetenv("KILN_TEST_CACHE_DIR");
            unsetenv("KILN_CACHE_DIR");
            unsetenv("KILN_CACHE_IN_MEMORY");
            std::filesystem::remove_all(dir_);
        }
    }
    bool owner_ = false;
    std::filesystem::path dir_;
};

}  // namespace kiln::test
