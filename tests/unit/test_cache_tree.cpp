// Tree entries of the disk cache (the host prelude's kind): adopted whole into trees/<key>,
// counted toward the limit, evicted least recently used, but never while a lease holds them, and
// a lease taken on a tree evicted meanwhile is refused.
#include "core/compile/cache_lock.hpp"
#include "core/compile/cache_tree.hpp"
#include "core/compile/compile_key.hpp"
#include "core/compile/disk_cache.hpp"
#include "core/compile/disk_eviction.hpp"
#include "tests/support/temporary_directory.hpp"

#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using kiln::detail::DiskCache;
using kiln::detail::TreeLease;

std::string key_of(int i) {
    static const std::vector<std::string> options = {"-O3"};
    return kiln::detail::cache_key(
        {"host", "g++ 12", "native", options, "prelude " + std::to_string(i), "0.1.0"});
}

class CacheTreeTest : public testing::Test {
protected:
    // A tree of two files, `bytes` in all, built aside in trees/ and adopted as key_of(i), last
    // used `age` ago.
    void adopt(int i, std::size_t bytes, std::chrono::seconds age) const {
        const auto built =
            kiln::detail::tree_folder(dir_.path()) / ("building-" + std::to_string(i));
        fs::create_directories(built / "kiln");
        std::ofstream(built / "a.h") << std::string(bytes / 2, 'a');
        std::ofstream(built / "kiln" / "a.h.gch") << std::string(bytes - bytes / 2, 'g');
        ASSERT_TRUE(cache_.adopt_tree(key_of(i), built));
        fs::last_write_time(cache_.tree_path(key_of(i)), fs::file_time_type::clock::now() - age);
    }
    [[nodiscard]] bool present(int i) const {
        return fs::exists(cache_.tree_path(key_of(i)) / "kiln" / "a.h.gch");
    }

    kiln::test::TemporaryDirectory dir_{"kiln-cache-tree-"};
    DiskCache cache_{dir_.path(), false, 0};
};

TEST_F(CacheTreeTest, AdoptedTreeIsCountedAndKeepsItsPlace) {
    adopt(1, 3000, std::chrono::seconds(0));
    EXPECT_TRUE(present(1));
    EXPECT_EQ(kiln::detail::tree_size(cache_.tree_path(key_of(1))), 3000U);
    const auto usage = kiln::detail::disk_usage(dir_.path());
    EXPECT_EQ(usage.files, 1U);
    EXPECT_EQ(usage.bytes, 3000U);
    EXPECT_EQ(kiln::detail::CacheLock::acquire(dir_.path())->recorded_total()->bytes, 3000U);

    // A second build of the same key finds the place taken: the first tree stays whole.
    const auto late = kiln::detail::tree_folder(dir_.path()) / "late";
    fs::create_directories(late);
    std::ofstream(late / "other.h") << "other";
    EXPECT_FALSE(cache_.adopt_tree(key_of(1), late));
    EXPECT_TRUE(present(1));
    EXPECT_FALSE(fs::exists(cache_.tree_path(key_of(1)) / "other.h"));
    EXPECT_THROW((void)cache_.tree_path("not a key"), kiln::Error);
}

TEST_F(CacheTreeTest, EvictionTakesTheLeastRecentlyUsedTreeButNotOneInUse) {
    adopt(1, 4000, std::chrono::seconds(300));
    adopt(2, 4000, std::chrono::seconds(200));
    adopt(3, 4000, std::chrono::seconds(100));
    {
        const auto lease = TreeLease::acquire(cache_.tree_path(key_of(1)));
        ASSERT_TRUE(lease.has_value());
        // The lease marked it used; made the oldest again, only the lease can keep it.
        fs::last_write_time(cache_.tree_path(key_of(1)),
                            fs::file_time_type::clock::now() - std::chrono::seconds(300));
        kiln::detail::evict_least_recently_used(dir_.path(), 5000);
        EXPECT_TRUE(present(1)) << "evicted while leased";
        EXPECT_FALSE(present(2));
        EXPECT_FALSE(present(3)) << "the leased tree still counts, so the next one goes too";
    }
    adopt(4, 4000, std::chrono::seconds(0));
    kiln::detail::evict_least_recently_used(dir_.path(), 5000);
    EXPECT_FALSE(present(1));
    EXPECT_TRUE(present(4));
    EXPECT_EQ(kiln::detail::disk_usage(dir_.path()).bytes, 4000U);
    EXPECT_EQ(kiln::detail::CacheLock::acquire(dir_.path())->recorded_total()->bytes, 4000U);
}

TEST_F(CacheTreeTest, ALeaseMarksUseAndIsRefusedOnceTheTreeIsGone) {
    adopt(1, 1000, std::chrono::hours(2));
    adopt(2, 1000, std::chrono::hours(1));
    ASSERT_TRUE(TreeLease::acquire(cache_.tree_path(key_of(1))).has_value());  // now the newest
    kiln::detail::evict_least_recently_used(dir_.path(), 1500);
    EXPECT_TRUE(present(1));
    EXPECT_FALSE(present(2));
    EXPECT_FALSE(TreeLease::acquire(cache_.tree_path(key_of(2))).has_value());

    // Opened before its eviction, it must not count as held after.
    auto lease = TreeLease::acquire(cache_.tree_path(key_of(1)));
    ASSERT_TRUE(lease.has_value());
    lease.reset();
    EXPECT_TRUE(kiln::detail::remove_unused_tree(cache_.tree_path(key_of(1))));
    EXPECT_FALSE(fs::exists(cache_.tree_path(key_of(1))));
    EXPECT_FALSE(TreeLease::acquire(cache_.tree_path(key_of(1))).has_value());
}

// A lease follows its tree through the rename that adopts it, so the store's own eviction pass,
// which runs under a limit smaller than the tree, leaves it.
TEST_F(CacheTreeTest, ATreeLeasedWhileBuiltSurvivesItsOwnAdoption) {
    const DiskCache small(dir_.path(), false, 100);
    const auto built = kiln::detail::tree_folder(dir_.path()) / "building";
    fs::create_directories(built);
    std::ofstream(built / "big.gch") << std::string(5000, 'g');
    auto lease = TreeLease::acquire(built);
    ASSERT_TRUE(lease.has_value());
    ASSERT_TRUE(small.adopt_tree(key_of(1), built));
    lease->moved_to(small.tree_path(key_of(1)));
    EXPECT_TRUE(fs::exists(small.tree_path(key_of(1)) / "big.gch"));
    EXPECT_EQ(lease->path(), small.tree_path(key_of(1)));
    lease.reset();
    kiln::detail::evict_least_recently_used(dir_.path(), 100);
    EXPECT_FALSE(fs::exists(small.tree_path(key_of(1))));
}

}  // namespace
