// The host backend's files in the compile cache, across processes: the precompiled prelude is a
// tree entry, counted and evicted like the others but never while in use; a damaged one is
// rebuilt, one that another user could have written is replaced (with a warning), a writer
// killed midway or a damaged entry costs a compile, never a failure, and processes compiling at
// once into a small cache all succeed. Each step runs in a fresh process (a re-executed death
// test), as a user's next run would. Skips on the GPU backends.
#include "core/compile/cache_tree.hpp"
#include "core/compile/disk_cache.hpp"
#include "core/compile/disk_eviction.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/cache_death_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;
using kiln::test::cache_files;

// Whether y = 3x + offset (a kernel of its own per offset) gives the right y in this process.
bool kernel_is_right(int offset) {
    try {
        const kiln::ElementwiseKernel kernel("int32 x", "int32 y",
                                             "y = x * 3 + " + std::to_string(offset),
                                             "cached_" + std::to_string(offset));
        const auto y =
            kernel({kiln::array(std::vector<std::int32_t>{1, 2, 3})}).get<std::int32_t>();
        return y == std::vector<std::int32_t>{3 + offset, 6 + offset, 9 + offset};
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return false;
    }
}

// Runs kernel_is_right(offset), then exits 0 when it was and the cache rejected `corrupt`
// damaged entries.
[[noreturn]] void run_kernel(int offset, std::uint64_t corrupt) {
    const bool right = kernel_is_right(offset);
    const auto s = kiln::compile_cache_statistics();
    std::fprintf(stderr, "right=%d compiles=%llu disk_hits=%llu corrupt=%llu\n", right ? 1 : 0,
                 static_cast<unsigned long long>(s.compiles),
                 static_cast<unsigned long long>(s.disk_hits),
                 static_cast<unsigned long long>(s.corrupt_files));
    std::_Exit(right && s.corrupt_files == corrupt ? 0 : 1);
}

// Two processes, each compiling `kernels` kernels of its own at once, each exiting 0 when all of
// them were right; exits 0 when both did.
[[noreturn]] void run_two_processes(int kernels) {
    std::vector<pid_t> children;
    for (int process = 0; process < 2; ++process) {
        const pid_t child = ::fork();
        if (child == 0) {
            bool right = true;
            for (int i = 0; i < kernels; ++i) {
                right = kernel_is_right(100 * (process + 1) + i) && right;
            }
            std::_Exit(right ? 0 : 1);
        }
        children.push_back(child);
    }
    bool right = true;
    for (const pid_t child : children) {
        int status = 0;
        right = child > 0 && ::waitpid(child, &status, 0) == child && WIFEXITED(status) &&
                WEXITSTATUS(status) == 0 && right;
    }
    std::_Exit(right ? 0 : 1);
}

// The prelude's tree entries in the cache `dir`: trees/<64 hex digits>.
std::vector<fs::path> prelude_trees(const fs::path& dir) {
    std::vector<fs::path> trees;
    for (const auto& place : fs::directory_iterator(kiln::detail::tree_folder(dir))) {
        if (place.path().filename().string().size() == 64) {
            trees.push_back(place.path());
        }
    }
    return trees;
}

// The prelude tree's precompiled kiln/prelude.h, when the compiler made one.
std::optional<fs::path> precompiled_prelude(const fs::path& dir) {
    for (const auto& tree : prelude_trees(dir)) {
        const auto header = tree / "kiln" / "prelude.h.gch";
        if (fs::exists(header)) {
            return header;
        }
    }
    return std::nullopt;
}

// The bytes of the regular files below `tree`, counted here independently of the cache's code.
std::uintmax_t bytes_below(const fs::path& tree) {
    std::uintmax_t total = 0;
    for (const auto& item : fs::recursive_directory_iterator(tree)) {
        if (item.is_regular_file()) {
            total += item.file_size();
        }
    }
    return total;
}

using KeyedEntry = std::pair<std::string, kiln::detail::CacheEntry>;

using HostCacheDeathTest = kiln::test::CacheDirectoryDeathTest;

// Issue 31: a precompiled prelude cut short (a full disk, a killed process) made every later
// host compile fail with GCC's "cannot read PCH file".
TEST_F(HostCacheDeathTest, TruncatedPrecompiledPreludeIsRebuilt) {
    KILN_REQUIRE_HOST();
    EXPECT_EXIT(run_kernel(1, 0), testing::ExitedWithCode(0), "");
    const auto header = precompiled_prelude(dir_);
    if (!header) {
        GTEST_SKIP() << "the host compiler made no precompiled header (clang reads the headers)";
    }
    const auto size = fs::file_size(*header);
    EXPECT_EXIT(
        {
            fs::resize_file(*header, size / 2);
            std::_Exit(0);
        },
        testing::ExitedWithCode(0), "");
    EXPECT_EXIT(run_kernel(2, 0), testing::ExitedWithCode(0), "");
    // GCC's output differs a little from build to build (it records the scratch directory).
    const auto rebuilt = static_cast<double>(fs::file_size(*header));
    EXPECT_NEAR(rebuilt, static_cast<double>(size), 0.01 * static_cast<double>(size))
        << "not rebuilt";
}

// A prelude directory whose files another user could have written is replaced, with a warning;
// a trees/ folder others may write to is not used at all.
TEST_F(HostCacheDeathTest, PreludeOthersCouldWriteIsNotUsed) {
    KILN_REQUIRE_HOST();
    EXPECT_EXIT(run_kernel(1, 0), testing::ExitedWithCode(0), "");
    const auto header = precompiled_prelude(dir_);
    ASSERT_EQ(prelude_trees(dir_).size(), 1U);
    const fs::path file = header ? *header : prelude_trees(dir_).front() / "kiln" / "prelude.h";
    EXPECT_EXIT(
        {
            fs::permissions(file, static_cast<fs::perms>(0666));
            std::_Exit(0);
        },
        testing::ExitedWithCode(0), "");
    EXPECT_EXIT(run_kernel(2, 0), testing::ExitedWithCode(0),
                "kiln: warning: replacing the host prelude directory .*its group or others may "
                "write to it \\(mode 0666\\)");
    EXPECT_EQ(fs::status(file).permissions() & fs::perms::group_write, fs::perms::none);

    if (::geteuid() == 0) {  // CI runs as root; chown needs it
        EXPECT_EXIT({ std::_Exit(::lchown(file.c_str(), 65534, 65534) == 0 ? 0 : 1); },
                    testing::ExitedWithCode(0), "");
        EXPECT_EXIT(run_kernel(3, 0), testing::ExitedWithCode(0),
                    "kiln: warning: replacing the host prelude directory .*belongs to user 65534");
        struct stat status {};
        ASSERT_EQ(::stat(file.c_str(), &status), 0);
        EXPECT_EQ(status.st_uid, 0U);
    } else {
        std::printf("[  NOTE    ] not root: another user's prelude file is not tried\n");
    }

    EXPECT_EXIT(
        {
            fs::permissions(kiln::detail::tree_folder(dir_), fs::perms::all);
            std::_Exit(0);
        },
        testing::ExitedWithCode(0), "");
    EXPECT_EXIT(run_kernel(4, 0), testing::ExitedWithCode(0),
                "kiln: warning: not using the host prelude directory .*mode 0777");
}

// Checks that the one prelude tree in `dir` counts toward the cache's size, that eviction keeps it
// while a lease holds it and takes it once free; exits 0 when all of that held.
[[noreturn]] void evict_around_a_lease(const fs::path& dir) {
    const auto trees = prelude_trees(dir);
    if (trees.size() != 1 || fs::exists(dir / "host-prelude")) {
        std::fprintf(stderr, "%zu prelude trees\n", trees.size());
        std::_Exit(1);
    }
    std::uintmax_t expected = bytes_below(trees.front());
    const auto stored = cache_files(dir);
    for (const auto& path : stored) {
        expected += fs::file_size(path);
    }
    const auto usage = kiln::detail::disk_usage(dir);
    bool right = usage.files == stored.size() + 1 && usage.bytes == expected;
    {
        const auto lease = kiln::detail::TreeLease::acquire(trees.front());
        kiln::detail::evict_least_recently_used(dir, 1);
        right =
            right && lease && fs::exists(trees.front() / "manifest") && cache_files(dir).empty();
    }
    kiln::detail::evict_least_recently_used(dir, 1);
    right = right && !fs::exists(trees.front()) && kiln::detail::disk_usage(dir).bytes == 0;
    std::fprintf(stderr, "files=%llu bytes=%llu expected=%llu right=%d\n",
                 static_cast<unsigned long long>(usage.files),
                 static_cast<unsigned long long>(usage.bytes),
                 static_cast<unsigned long long>(expected), right ? 1 : 0);
    std::_Exit(right ? 0 : 1);
}

// The prelude is one entry of the cache: counted toward its size, kept by eviction while a
// process holds it, evicted least recently used once free, and built again by the next compile.
TEST_F(HostCacheDeathTest, PreludeIsAnEntryOfTheCache) {
    KILN_REQUIRE_HOST();
    EXPECT_EXIT(run_kernel(6, 0), testing::ExitedWithCode(0), "");
    EXPECT_EXIT(evict_around_a_lease(dir_), testing::ExitedWithCode(0), "");
    EXPECT_EXIT(run_kernel(7, 0), testing::ExitedWithCode(0), "");
    const auto trees = prelude_trees(dir_);
    ASSERT_EQ(trees.size(), 1U) << "not built again";
    EXPECT_TRUE(fs::exists(trees.front() / "manifest"));
}

// A writer killed at a random point leaves the entry whole or absent: the next process gets the
// right kernel, from disk or compiled again. An entry cut short (as a writer that does not
// rename into place would leave) is detected, counted and compiled again.
TEST_F(HostCacheDeathTest, KilledWriterOrDamagedEntryCostsACompile) {
    KILN_REQUIRE_HOST();
    EXPECT_EXIT(run_kernel(5, 0), testing::ExitedWithCode(0), "");
    // The threadsafe style runs this body again up to each death test in a new process, where the
    // cache holds what the death tests before it left (none at all when the writer below dies
    // before its first store): each statement reads the cache itself.
    EXPECT_EXIT(std::_Exit(cache_files(dir_).empty() ? 1 : 0), testing::ExitedWithCode(0), "");
    EXPECT_EXIT(
        {
            const kiln::detail::DiskCache cache(dir_);
            std::vector<KeyedEntry> found;
            for (const auto& path : cache_files(dir_)) {
                const auto key = path.stem().string();
                found.emplace_back(key, *cache.load(key).entry);
                fs::remove(path);
            }
            const pid_t writer = ::fork();
            if (writer == 0) {
                for (;;) {
                    for (const auto& [key, entry] : found) {
                        (void)cache.store(key, entry);
                    }
                }
            }
            std::mt19937 random(std::random_device{}());
            std::this_thread::sleep_for(
                std::chrono::microseconds(std::uniform_int_distribution<int>(0, 20000)(random)));
            int status = 0;
            std::_Exit(writer > 0 && ::kill(writer, SIGKILL) == 0 &&
                               ::waitpid(writer, &status, 0) == writer
                           ? 0
                           : 1);
        },
        testing::ExitedWithCode(0), "");
    EXPECT_EXIT(run_kernel(5, 0), testing::ExitedWithCode(0), "");

    EXPECT_EXIT(
        {
            for (const auto& path : cache_files(dir_)) {
                fs::resize_file(path, fs::file_size(path) / 2);
            }
            std::_Exit(0);
        },
        testing::ExitedWithCode(0), "");
    EXPECT_EXIT(run_kernel(5, cache_files(dir_).size()), testing::ExitedWithCode(0), "");
    EXPECT_EXIT(run_kernel(5, 0), testing::ExitedWithCode(0), "");
}

// Two processes compiling at once into a cache that holds about two entries both get right
// results, and the cache ends within its limit.
TEST_F(HostCacheDeathTest, TwoProcessesCompileIntoASmallCache) {
    KILN_REQUIRE_HOST();
    EXPECT_EXIT(run_kernel(90, 0), testing::ExitedWithCode(0), "");
    const auto stored = cache_files(dir_);
    ASSERT_EQ(stored.size(), 1U);
    ASSERT_EQ(prelude_trees(dir_).size(), 1U);
    // The prelude counts too; it is used last, so it stays.
    const auto prelude = bytes_below(prelude_trees(dir_).front());
    const auto limit = prelude + fs::file_size(stored.front()) * 5 / 2;
    setenv("KILN_CACHE_SIZE_LIMIT", std::to_string(limit).c_str(), 1);
    EXPECT_EXIT(run_two_processes(3), testing::ExitedWithCode(0), "");
    unsetenv("KILN_CACHE_SIZE_LIMIT");
    std::uintmax_t total = 0;
    for (const auto& path : cache_files(dir_)) {
        total += fs::file_size(path);
    }
    for (const auto& tree : prelude_trees(dir_)) {
        total += bytes_below(tree);
    }
    EXPECT_LE(total, limit);
    EXPECT_GE(cache_files(dir_).size(), 1U);
}

// A cache smaller than the prelude evicts it at every store, while the other process may be
// compiling with it: every compile still succeeds, each building the prelude again when it is
// gone, and the cache ends empty but for what is in use (nothing, once both are done).
TEST_F(HostCacheDeathTest, PreludeEvictedByAnotherProcessNeverFailsACompile) {
    KILN_REQUIRE_HOST();
    setenv("KILN_CACHE_SIZE_LIMIT", "1", 1);
    EXPECT_EXIT(run_two_processes(2), testing::ExitedWithCode(0), "");
    unsetenv("KILN_CACHE_SIZE_LIMIT");
    EXPECT_TRUE(cache_files(dir_).empty());
    EXPECT_TRUE(prelude_trees(dir_).empty());
}

}  // namespace
