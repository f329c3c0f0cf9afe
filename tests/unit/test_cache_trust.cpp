// The compile cache refuses directories and files another user could have written (as ccache and
// pip do), and says once, on stderr, when it cannot use or write its directory.
#include "core/compile/cache_trust.hpp"
#include "core/compile/compile_key.hpp"
#include "core/compile/disk_cache.hpp"
#include "tests/support/cache_environment.hpp"
#include "tests/support/temporary_directory.hpp"

#include <kiln/compile_cache.hpp>

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>

namespace {

namespace fs = std::filesystem;
using kiln::detail::CacheEntry;
using kiln::detail::DiskCache;
using kiln::detail::untrusted_directory;
using kiln::test::ScopedEnvironment;
using kiln::test::TemporaryDirectory;

// The uid of "nobody" on Debian and most Linux systems: a user who is not this one.
constexpr uid_t other_user = 65534;

bool is_root() {
    return ::geteuid() == 0;
}

#define SKIP_UNLESS_ROOT()                                                                    \
    if (!is_root()) {                                                                         \
        GTEST_SKIP() << "needs root, to give a file to another user (chown nobody); CI runs " \
                        "as root";                                                            \
    }

void chmod_or_fail(const fs::path& path, mode_t mode) {
    ASSERT_EQ(::chmod(path.c_str(), mode), 0) << path;
}

void give_away(const fs::path& path) {
    ASSERT_EQ(::lchown(path.c_str(), other_user, other_user), 0) << path;
}

std::string key_of(std::string_view source) {
    static const std::vector<std::string> options;
    return kiln::detail::cache_key({"host", "g++", "native", options, source, "0.1.0"});
}

CacheEntry entry_of(std::size_t size) {
    CacheEntry entry;
    for (std::size_t i = 0; i < size; ++i) {
        entry.image.push_back(static_cast<char>((i * 13) % 251));
    }
    entry.lowered_names = {{"k<int>", "_Z1kIiEvv"}};
    return entry;
}

// How many times `text` contains `part`.
std::size_t occurrences(const std::string& text, const std::string& part) {
    std::size_t count = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
        ++count;
    }
    return count;
}

TEST(CacheTrust, PrivateOrAbsentDirectoryIsTrusted) {
    const TemporaryDirectory dir("kiln-trust-");
    chmod_or_fail(dir.path(), 0700);
    EXPECT_EQ(untrusted_directory(dir.path()), std::nullopt);
    chmod_or_fail(dir.path(), 0755);  // others may read, not write
    EXPECT_EQ(untrusted_directory(dir.path()), std::nullopt);
    EXPECT_EQ(untrusted_directory(dir.path() / "not" / "made" / "yet"), std::nullopt);
}

TEST(CacheTrust, DirectoryOthersMayWriteIsRefused) {
    const TemporaryDirectory dir("kiln-trust-");
    for (const mode_t mode : {0777, 0770, 0702, 01777}) {
        chmod_or_fail(dir.path(), mode);
        const auto reason = untrusted_directory(dir.path());
        ASSERT_TRUE(reason.has_value()) << std::oct << mode;
        EXPECT_NE(reason->find("its group or others may write to it"), std::string::npos)
            << *reason;
        char expected[16];
        (void)std::snprintf(expected, sizeof expected, "mode %04o", static_cast<unsigned>(mode));
        EXPECT_NE(reason->find(expected), std::string::npos) << *reason;
    }
}

TEST(CacheTrust, AFileIsNotADirectory) {
    const TemporaryDirectory dir("kiln-trust-");
    std::ofstream(dir.path() / "file") << "x";
    const auto reason = untrusted_directory(dir.path() / "file");
    ASSERT_TRUE(reason.has_value());
    EXPECT_NE(reason->find("not a directory"), std::string::npos) << *reason;
}

TEST(CacheTrust, AnotherUsersDirectoryIsRefused) {
    SKIP_UNLESS_ROOT();
    const TemporaryDirectory dir("kiln-trust-");
    chmod_or_fail(dir.path(), 0700);
    give_away(dir.path());
    const auto reason = untrusted_directory(dir.path());
    ASSERT_TRUE(reason.has_value());
    EXPECT_NE(reason->find("belongs to user 65534, not to this user (0)"), std::string::npos)
        << *reason;
}

// A link is judged by what it points to, whoever owns the link itself.
TEST(CacheTrust, LinkedDirectoryIsJudgedByItsTarget) {
    const TemporaryDirectory dir("kiln-trust-");
    fs::create_directory(dir.path() / "target");
    chmod_or_fail(dir.path() / "target", 0700);
    fs::create_directory_symlink(dir.path() / "target", dir.path() / "link");
    EXPECT_EQ(untrusted_directory(dir.path() / "link"), std::nullopt);

    chmod_or_fail(dir.path() / "target", 0777);
    auto reason = untrusted_directory(dir.path() / "link");
    ASSERT_TRUE(reason.has_value());
    EXPECT_NE(reason->find("mode 0777"), std::string::npos) << *reason;
    EXPECT_NE(reason->find("(a link to '" + (dir.path() / "target").string() + "')"),
              std::string::npos)
        << *reason;

    if (is_root()) {
        chmod_or_fail(dir.path() / "target", 0700);
        give_away(dir.path() / "target");
        reason = untrusted_directory(dir.path() / "link");
        ASSERT_TRUE(reason.has_value());
        EXPECT_NE(reason->find("belongs to user 65534"), std::string::npos) << *reason;
    }
}

TEST(CacheTrust, AnotherUsersEntryIsAMiss) {
    SKIP_UNLESS_ROOT();
    const TemporaryDirectory dir("kiln-trust-");
    const DiskCache cache(dir.path() / "cache");
    const auto key = key_of("owned");
    ASSERT_TRUE(cache.store(key, entry_of(100)));
    ASSERT_EQ(cache.load(key).entry, entry_of(100));

    give_away(cache.entry_path(key));
    auto lookup = cache.load(key);
    EXPECT_FALSE(lookup.entry.has_value()) << "another user's entry was loaded";
    EXPECT_FALSE(lookup.corrupt);

    ASSERT_EQ(::lchown(cache.entry_path(key).c_str(), 0, 0), 0);
    EXPECT_EQ(cache.load(key).entry, entry_of(100));
}

TEST(CacheTrust, EntryOthersMayWriteIsAMiss) {
    const TemporaryDirectory dir("kiln-trust-");
    const DiskCache cache(dir.path() / "cache");
    const auto key = key_of("writable");
    ASSERT_TRUE(cache.store(key, entry_of(100)));
    chmod_or_fail(cache.entry_path(key), 0666);
    const auto lookup = cache.load(key);
    EXPECT_FALSE(lookup.entry.has_value()) << "an entry others may write was loaded";
    EXPECT_FALSE(lookup.corrupt);
    chmod_or_fail(cache.entry_path(key), 0600);
    EXPECT_EQ(cache.load(key).entry, entry_of(100));
}

// The refusal is said once per directory and process, however often the cache is asked for.
TEST(CacheTrust, UntrustedCacheDirectoryWarnsOncePerDirectory) {
    const ScopedEnvironment environment;
    const TemporaryDirectory first("kiln-trust-");
    const TemporaryDirectory second("kiln-trust-");
    chmod_or_fail(first.path(), 0777);
    chmod_or_fail(second.path(), 0777);

    testing::internal::CaptureStderr();
    setenv("KILN_CACHE_DIR", first.path().c_str(), 1);
    const bool first_used = DiskCache::trusted_from_environment().has_value();
    const bool first_used_again = DiskCache::trusted_from_environment().has_value();
    const bool named = kiln::compile_cache_directory().has_value();
    setenv("KILN_CACHE_DIR", second.path().c_str(), 1);
    const bool second_used = DiskCache::trusted_from_environment().has_value();
    const std::string output = testing::internal::GetCapturedStderr();

    EXPECT_FALSE(first_used);
    EXPECT_FALSE(first_used_again);
    EXPECT_FALSE(named) << "compile_cache_directory names a directory that is not used";
    EXPECT_FALSE(second_used);
    for (const auto* dir : {&first, &second}) {
        EXPECT_EQ(occurrences(output, "kiln: warning: not using the compile cache directory '" +
                                          dir->path().string() + "'"),
                  1U)
            << output;
    }
    EXPECT_EQ(occurrences(output, "kiln: warning:"), 2U) << output;
    EXPECT_NE(output.find("(mode 0777); kernels are cached in memory only"), std::string::npos)
        << output;
}

TEST(CacheTrust, TrustedCacheDirectoryIsUsedQuietly) {
    const ScopedEnvironment environment;
    const TemporaryDirectory dir("kiln-trust-");
    chmod_or_fail(dir.path(), 0700);
    setenv("KILN_CACHE_DIR", dir.path().c_str(), 1);
    testing::internal::CaptureStderr();
    const auto cache = DiskCache::trusted_from_environment();
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    ASSERT_TRUE(cache.has_value());
    EXPECT_EQ(cache->directory(), dir.path());
}

// Issue 32, item 6: a KILN_CACHE_DIR that cannot be written was ignored without a word, and every
// run compiled everything again. A path below a file fails for root too.
TEST(CacheTrust, UnwritableCacheDirectoryWarnsOnceWithTheReason) {
    const ScopedEnvironment environment;
    const TemporaryDirectory dir("kiln-trust-");
    std::ofstream(dir.path() / "file") << "x";
    const fs::path below_a_file = dir.path() / "file" / "cache";
    setenv("KILN_CACHE_DIR", below_a_file.c_str(), 1);

    testing::internal::CaptureStderr();
    const auto cache = DiskCache::trusted_from_environment();
    const bool stored = cache && cache->store(key_of("a"), entry_of(10));
    const bool stored_again = cache && cache->store(key_of("b"), entry_of(10));
    const std::string output = testing::internal::GetCapturedStderr();

    ASSERT_TRUE(cache.has_value());
    EXPECT_FALSE(stored);
    EXPECT_FALSE(stored_again);
    EXPECT_EQ(occurrences(output, "kiln: warning: cannot write the compile cache in '" +
                                      below_a_file.string() + "'"),
              1U)
        << output;
    EXPECT_NE(output.find("Not a directory"), std::string::npos) << output;
    EXPECT_NE(output.find("compiled again by the next run"), std::string::npos) << output;
}

TEST(CacheTrust, ReadOnlyCacheDirectoryWarnsWhenOpened) {
    if (is_root()) {
        GTEST_SKIP() << "running as root, which may write to a directory of mode 0500";
    }
    const ScopedEnvironment environment;
    const TemporaryDirectory dir("kiln-trust-");
    chmod_or_fail(dir.path(), 0500);
    setenv("KILN_CACHE_DIR", dir.path().c_str(), 1);
    testing::internal::CaptureStderr();
    EXPECT_TRUE(DiskCache::trusted_from_environment().has_value()) << "its entries still serve";
    const std::string output = testing::internal::GetCapturedStderr();
    chmod_or_fail(dir.path(), 0700);
    EXPECT_EQ(occurrences(output, "cannot write the compile cache in '" + dir.path().string() +
                                      "': Permission denied"),
              1U)
        << output;
}

// A writer killed at any point (here SIGKILL during stores of a large entry) leaves the previous
// entry or none, never a part that a later process would read: only temporary files are left.
TEST(CacheTrust, AWriterKilledMidwayLeavesNoPartialEntry) {
    const TemporaryDirectory dir("kiln-trust-");
    const DiskCache cache(dir.path() / "cache");
    const auto entry = entry_of(std::size_t{8} << 20U);
    std::mt19937 random(std::random_device{}());
    for (int round = 0; round < 12; ++round) {
        const auto key = key_of("killed " + std::to_string(round));
        const pid_t writer = ::fork();
        ASSERT_GE(writer, 0);
        if (writer == 0) {
            for (;;) {
                (void)cache.store(key, entry);
            }
        }
        std::this_thread::sleep_for(
            std::chrono::microseconds(std::uniform_int_distribution<int>(0, 40000)(random)));
        ASSERT_EQ(::kill(writer, SIGKILL), 0);
        int status = 0;
        ASSERT_EQ(::waitpid(writer, &status, 0), writer);
        ASSERT_TRUE(WIFSIGNALED(status));

        const auto lookup = cache.load(key);
        EXPECT_FALSE(lookup.corrupt) << "round " << round << ": a partial entry was left";
        if (lookup.entry) {
            EXPECT_EQ(*lookup.entry, entry) << "round " << round;
        }
        // The next process stores it whole and reads it back.
        ASSERT_TRUE(cache.store(key, entry));
        EXPECT_EQ(cache.load(key).entry, entry);
    }
}

}  // namespace
