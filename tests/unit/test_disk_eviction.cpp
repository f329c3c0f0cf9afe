// The disk cache's size limit: the least recently used entries go first, a hit counts as a use,
// only kiln's own entries are ever deleted (and a dead writer's stale leftovers), a store adds to
// a recorded total rather than list the directory, and processes sharing a small cache all
// succeed.
#include "core/compile/cache_lock.hpp"
#include "core/compile/cache_tree.hpp"
#include "core/compile/compile_key.hpp"
#include "core/compile/disk_cache.hpp"
#include "core/compile/disk_eviction.hpp"
#include "tests/support/cache_environment.hpp"

#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using kiln::detail::cache_key;
using kiln::detail::CacheEntry;
using kiln::detail::disk_usage;
using kiln::detail::DiskCache;
using kiln::detail::evict_least_recently_used;

std::string key_of(int i) {
    static const std::vector<std::string> options = {"-O3"};
    const std::string source = "kernel " + std::to_string(i);
    return cache_key({"host", "g++ 12", "native", options, source, "0.1.0"});
}

CacheEntry entry_of(int i) {
    CacheEntry entry;
    entry.image.assign(1000, static_cast<char>(i));
    return entry;
}

class DiskEvictionTest : public testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("kiln-disk-eviction-" + std::to_string(::getpid()) +
                                             "-" + std::to_string(std::random_device{}()));
    }
    void TearDown() override { fs::remove_all(root_); }

    // Stores entries 0..count-1 with no limit, entry i last used i seconds after the first.
    [[nodiscard]] std::uint64_t store_aged(int count) const {
        const DiskCache cache(root_, false, 0);
        const auto start = fs::file_time_type::clock::now() - std::chrono::hours(1);
        for (int i = 0; i < count; ++i) {
            EXPECT_TRUE(cache.store(key_of(i), entry_of(i)));
            fs::last_write_time(cache.entry_path(key_of(i)), start + std::chrono::seconds(i));
        }
        return fs::file_size(cache.entry_path(key_of(0)));
    }
    [[nodiscard]] bool present(int i) const {
        return DiskCache(root_, false, 0).load(key_of(i)).entry.has_value();
    }

    fs::path root_;
};

TEST_F(DiskEvictionTest, KeepsTheNewestEntriesUnderTheLimit) {
    const auto size = store_aged(6);
    EXPECT_EQ(disk_usage(root_).files, 6U);
    EXPECT_EQ(disk_usage(root_).bytes, 6 * size);
    evict_least_recently_used(root_, 3 * size + size / 2);
    EXPECT_EQ(disk_usage(root_).files, 3U);
    EXPECT_EQ(disk_usage(root_).bytes, 3 * size);
    for (int i = 0; i < 6; ++i) {
        EXPECT_EQ(present(i), i >= 3) << i;
    }
}

TEST_F(DiskEvictionTest, AHitCountsAsAUse) {
    const auto size = store_aged(4);
    ASSERT_TRUE(present(0));  // the oldest, now the newest
    evict_least_recently_used(root_, 2 * size);
    EXPECT_TRUE(present(0));
    EXPECT_FALSE(present(1));
    EXPECT_FALSE(present(2));
    EXPECT_TRUE(present(3));
}

TEST_F(DiskEvictionTest, StoreEvictsWithTheCachesLimit) {
    const auto size = store_aged(5);
    const DiskCache limited(root_, false, 3 * size);
    ASSERT_TRUE(limited.store(key_of(5), entry_of(5)));
    EXPECT_EQ(disk_usage(root_).files, 3U);
    EXPECT_TRUE(present(5));
    EXPECT_TRUE(present(4));
    EXPECT_FALSE(present(2));
}

// Only <key>.bin and <key>.cu files of this user's in their key's folder are kiln's: links,
// other names and other folders are neither counted nor deleted.
TEST_F(DiskEvictionTest, LeavesWhatIsNotAnEntryAlone) {
    const auto size = store_aged(2);
    const auto outside = root_.parent_path() / (root_.filename().string() + "-outside");
    std::ofstream(outside) << std::string(5000, 'o');
    const auto folder = DiskCache(root_).entry_path(key_of(7)).parent_path();
    fs::create_directories(folder);
    const auto link = DiskCache(root_).entry_path(key_of(7));
    fs::create_symlink(outside, link);
    fs::create_directories(root_ / "host-prelude" / "x");
    std::ofstream(root_ / "host-prelude" / "x" / "prelude.h.gch") << std::string(5000, 'p');
    std::ofstream(folder / "notes.txt") << std::string(5000, 'n');

    EXPECT_EQ(disk_usage(root_).files, 2U);
    evict_least_recently_used(root_, 0);
    EXPECT_EQ(disk_usage(root_).files, 0U);
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(fs::file_size(outside), 5000U);
    EXPECT_TRUE(fs::exists(root_ / "host-prelude" / "x" / "prelude.h.gch"));
    EXPECT_TRUE(fs::exists(folder / "notes.txt"));
    EXPECT_GT(size, 1000U);
    fs::remove(outside);
}

// A damaged entry is still a miss that says so, and counts toward the limit until evicted.
TEST_F(DiskEvictionTest, ADamagedEntryIsReportedAndEvictable) {
    const auto size = store_aged(3);
    const auto damaged = DiskCache(root_).entry_path(key_of(0));
    fs::resize_file(damaged, size / 2);
    fs::last_write_time(damaged, fs::file_time_type::clock::now() - std::chrono::hours(2));
    const auto lookup = DiskCache(root_, false, 0).load(key_of(0));
    EXPECT_FALSE(lookup.entry.has_value());
    EXPECT_TRUE(lookup.corrupt);
    evict_least_recently_used(root_, 2 * size);
    EXPECT_FALSE(fs::exists(damaged));
    EXPECT_TRUE(present(1));
    EXPECT_TRUE(present(2));
}

// What the lock file records, read through the lock as a store would.
std::optional<std::uint64_t> recorded_total(const fs::path& root) {
    const auto total = kiln::detail::CacheLock::acquire(root)->recorded_total();
    return total ? std::optional(total->bytes) : std::nullopt;
}

// A store adds its bytes to the recorded total without listing the directory: an entry put there
// by hand is not seen until the total is missing or passes the limit, and then it is counted.
TEST_F(DiskEvictionTest, AStoreAddsToTheRecordedTotalWithoutListing) {
    const auto size = store_aged(3);
    EXPECT_EQ(recorded_total(root_), 3 * size);
    const auto planted = DiskCache(root_).entry_path(key_of(50));
    fs::create_directories(planted.parent_path());
    std::ofstream(planted) << std::string(777, 'x');
    const DiskCache limited(root_, false, 10 * size);
    ASSERT_TRUE(limited.store(key_of(3), entry_of(3)));
    EXPECT_EQ(recorded_total(root_), 4 * size) << "the store listed the directory";
    ASSERT_TRUE(limited.store(key_of(3), entry_of(3)));  // replaces: adds nothing
    EXPECT_EQ(recorded_total(root_), 4 * size);

    fs::resize_file(root_ / "lock", 0);  // no record: the next store counts everything
    ASSERT_TRUE(limited.store(key_of(4), entry_of(4)));
    EXPECT_EQ(recorded_total(root_), 5 * size + 777);
    EXPECT_EQ(disk_usage(root_).bytes, 5 * size + 777);

    std::ofstream(root_ / "lock") << "kiln cache total 12 counted 1";  // torn: no newline
    EXPECT_EQ(recorded_total(root_), std::nullopt);

    // Past the limit the store counts again, so eviction sees the planted entry too.
    const DiskCache small(root_, false, 3 * size);
    ASSERT_TRUE(small.store(key_of(5), entry_of(5)));
    EXPECT_LE(disk_usage(root_).bytes, 3 * size);
    EXPECT_EQ(recorded_total(root_), disk_usage(root_).bytes);
    EXPECT_FALSE(fs::exists(planted));
}

// A writer killed midway leaves a temporary file (or a half-built tree); the eviction pass removes
// those older than stale_temporary_age and leaves younger ones, which may be a live writer's.
TEST_F(DiskEvictionTest, StaleTemporariesAreRemoved) {
    (void)store_aged(1);
    const auto folder = DiskCache(root_).entry_path(key_of(0)).parent_path();
    const auto old_time = fs::file_time_type::clock::now() - kiln::detail::stale_temporary_age -
                          std::chrono::minutes(5);
    const auto stale_file = folder / ("." + key_of(0) + ".bin.tmp.123.456.789");
    const auto young_file = folder / ("." + key_of(1) + ".bin.tmp.123.456.790");
    std::ofstream(stale_file) << "half";
    std::ofstream(young_file) << "half";
    fs::last_write_time(stale_file, old_time);
    const auto trees = kiln::detail::tree_folder(root_);
    fs::create_directories(trees / "kiln-host-stale" / "kiln");
    fs::create_directories(trees / "kiln-host-young");
    std::ofstream(trees / "kiln-host-stale" / "kiln" / "prelude.h.gch") << "half";
    fs::last_write_time(trees / "kiln-host-stale", old_time);

    kiln::detail::evict_least_recently_used(root_, std::numeric_limits<std::uint64_t>::max());
    EXPECT_FALSE(fs::exists(stale_file));
    EXPECT_TRUE(fs::exists(young_file));
    EXPECT_FALSE(fs::exists(trees / "kiln-host-stale"));
    EXPECT_TRUE(fs::exists(trees / "kiln-host-young"));
    EXPECT_TRUE(present(0));
    EXPECT_EQ(disk_usage(root_).files, 1U);
}

// A store lists the directory, and so removes stale temporaries, when the total was counted more
// than stale_temporary_age ago, even far below the limit; not when it was counted recently.
TEST_F(DiskEvictionTest, ACacheThatNeverFillsIsStillClearedOfStaleTemporaries) {
    const auto size = store_aged(1);
    const auto folder = DiskCache(root_).entry_path(key_of(0)).parent_path();
    const auto stale_file = folder / ("." + key_of(0) + ".bin.tmp.1.2.3");
    std::ofstream(stale_file) << "half";
    fs::last_write_time(stale_file, fs::file_time_type::clock::now() - std::chrono::hours(2));
    const DiskCache cache(root_, false, 1000 * size);
    ASSERT_TRUE(cache.store(key_of(1), entry_of(1)));
    EXPECT_TRUE(fs::exists(stale_file)) << "counted recently: the store should not list";

    {  // released before the next store, which waits for it
        const auto lock = kiln::detail::CacheLock::acquire(root_);
        const auto total = lock->recorded_total();
        ASSERT_TRUE(total.has_value());
        EXPECT_EQ(total->bytes, 2 * size);
        const auto long_ago = std::chrono::duration_cast<std::chrono::seconds>(
            std::chrono::system_clock::now().time_since_epoch() - std::chrono::hours(2));
        lock->record_total({total->bytes, long_ago.count()});
        EXPECT_EQ(lock->recorded_total()->counted_at, long_ago.count());
    }
    ASSERT_TRUE(cache.store(key_of(2), entry_of(2)));
    EXPECT_FALSE(fs::exists(stale_file));
    EXPECT_EQ(recorded_total(root_), 3 * size);
}

TEST_F(DiskEvictionTest, SizeLimitComesFromTheEnvironment) {
    const kiln::test::ScopedEnvironment environment;
    setenv("KILN_CACHE_DIR", root_.c_str(), 1);
    EXPECT_EQ(DiskCache::from_environment()->size_limit(), std::uint64_t{1} << 30U);
    setenv("KILN_CACHE_SIZE_LIMIT", "64M", 1);
    EXPECT_EQ(DiskCache::from_environment()->size_limit(), std::uint64_t{64} << 20U);
    setenv("KILN_CACHE_SIZE_LIMIT", "lots", 1);
    EXPECT_THROW((void)DiskCache::from_environment(), kiln::Error);
}

// Two processes store and read back 40 entries each through a cache that holds 8: every store
// succeeds, no read sees a damaged file, and the cache ends within its limit.
TEST_F(DiskEvictionTest, TwoProcessesShareASmallCache) {
    const auto size = store_aged(1);
    const std::uint64_t limit = 8 * size;
    std::vector<pid_t> children;
    for (int process = 0; process < 2; ++process) {
        const pid_t child = ::fork();
        if (child == 0) {
            const DiskCache cache(root_, false, limit);
            bool right = true;
            for (int i = 0; i < 40; ++i) {
                const int id = 100 * (process + 1) + i;
                right = cache.store(key_of(id), entry_of(id)) && right;
                const auto lookup = cache.load(key_of(id));
                right =
                    !lookup.corrupt && (!lookup.entry || *lookup.entry == entry_of(id)) && right;
            }
            std::_Exit(right ? 0 : 1);
        }
        children.push_back(child);
    }
    for (const pid_t child : children) {
        int status = 0;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    EXPECT_LE(disk_usage(root_).bytes, limit);
    EXPECT_GE(disk_usage(root_).files, 1U);
}

}  // namespace
