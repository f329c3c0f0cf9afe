// KILN_LOG: what each level prints on stderr. KILN_LOG is read once per process, so each case runs
// in a fresh process (a re-executed death test) with the variable set for it.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/cache_death_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

// Runs y = x + offset (a kernel of its own per offset), then exits 0 when y is right.
[[noreturn]] void run_kernel(int offset) {
    bool right = false;
    try {
        const kiln::ElementwiseKernel kernel("int32 x", "int32 y",
                                             "y = x + " + std::to_string(offset),
                                             "logged_" + std::to_string(offset));
        const auto y = kernel({kiln::array(std::vector<std::int32_t>{1, 2})}).get<std::int32_t>();
        right = y == std::vector<std::int32_t>{1 + offset, 2 + offset};
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
    }
    std::_Exit(right ? 0 : 1);
}

// Sets KILN_LOG for the processes the test starts (unset when empty), and unsets it afterwards.
class LogDeathTest : public kiln::test::CacheDirectoryDeathTest {
protected:
    static void log_level(const char* level) {
        if (*level == '\0') {
            unsetenv("KILN_LOG");  // NOLINT(concurrency-mt-unsafe)
        } else {
            setenv("KILN_LOG", level, 1);  // NOLINT(concurrency-mt-unsafe)
        }
    }
    void TearDown() override {
        unsetenv("KILN_LOG");  // NOLINT(concurrency-mt-unsafe)
        CacheDirectoryDeathTest::TearDown();
    }
};

// debug: the backend chosen and why, the disk lookup, and the compile with its time; the next
// process finds the kernel on disk.
TEST_F(LogDeathTest, DebugReportsBackendCompilesWithTimesAndCacheLookups) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_UNDER_SANITIZER(kiln::test::death_test);
    log_level("debug");
    const std::string backend(kiln::test::backend_name);
    EXPECT_EXIT(run_kernel(1), testing::ExitedWithCode(0),
                "kiln: info: backend: " + backend + " \\(KILN_BACKEND\\), [0-9]+ device");
    EXPECT_EXIT(run_kernel(2), testing::ExitedWithCode(0),
                "kiln: debug: cache: disk miss for 'logged_2' \\([^)]+\\) in " + dir_.string() +
                    ".*kiln: info: compiled 'logged_2' for [^ ]+ in [0-9]+\\.[0-9]{3} s\n");
    EXPECT_EXIT(run_kernel(2), testing::ExitedWithCode(0),
                "kiln: debug: cache: disk hit for 'logged_2' \\([^)]+\\): " + dir_.string());
}

// Unset: the default level, warn, prints nothing for a compile that goes well.
TEST_F(LogDeathTest, UnsetPrintsNothingBelowWarn) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_UNDER_SANITIZER(kiln::test::death_test);
    log_level("");
    EXPECT_EXIT(run_kernel(3), testing::ExitedWithCode(0), "^$");
    log_level("warn");
    EXPECT_EXIT(run_kernel(4), testing::ExitedWithCode(0), "^$");
}

// A value that is not a level warns once, naming the valid ones, and logging goes on at warn.
TEST_F(LogDeathTest, BadValueWarnsOnceNamingTheLevels) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_UNDER_SANITIZER(kiln::test::death_test);
    log_level("verbose");
    EXPECT_EXIT(run_kernel(5), testing::ExitedWithCode(0),
                "^kiln: warning: KILN_LOG='verbose' is not a log level; expected error, warn, "
                "info, debug; using warn\n$");
}

// error silences kiln's warnings (detail::warn_once goes through the log): a cache directory
// others may write to is passed over without a word.
TEST_F(LogDeathTest, ErrorSilencesWarnings) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_UNDER_SANITIZER(kiln::test::death_test);
    std::filesystem::create_directories(dir_);
    std::filesystem::permissions(dir_, std::filesystem::perms::all);
    log_level("");
    EXPECT_EXIT(run_kernel(6), testing::ExitedWithCode(0),
                "kiln: warning: not using the compile cache directory");
    log_level("error");
    EXPECT_EXIT(run_kernel(7), testing::ExitedWithCode(0), "^$");
}

}  // namespace
