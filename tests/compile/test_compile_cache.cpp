// The two-level compile cache across processes, with no device: each step runs in a fresh
// process (a re-executed death test), as a user's next program run would.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/cache_death_test.hpp"

#include <kiln/compile_cache.hpp>
#include <kiln/raw_module.hpp>

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using kiln::test::cache_files;

// Compiles `times` times in this process, then exits 0 when the statistics are as expected.
[[noreturn]] void compile_and_check(int times, std::uint64_t compiles, std::uint64_t disk_hits,
                                    std::uint64_t memory_hits, std::uint64_t corrupt) {
    const kiln::RawModule module("extern \"C\" __global__ void cached(int* x) { *x = 42; }\n");
    for (int i = 0; i < times; ++i) {
        (void)module.compile(kiln::test::compile_targets().front());
    }
    const auto s = kiln::compile_cache_statistics();
    std::fprintf(stderr, "compiles=%llu disk_hits=%llu memory_hits=%llu corrupt=%llu\n",
                 static_cast<unsigned long long>(s.compiles),
                 static_cast<unsigned long long>(s.disk_hits),
                 static_cast<unsigned long long>(s.memory_hits),
                 static_cast<unsigned long long>(s.corrupt_files));
    const bool expected = s.compiles == compiles && s.disk_hits == disk_hits &&
                          s.memory_hits == memory_hits && s.corrupt_files == corrupt;
    std::_Exit(expected ? 0 : 1);
}

using CompileCacheDeathTest = kiln::test::CacheDirectoryDeathTest;

TEST_F(CompileCacheDeathTest, AFreshProcessLoadsFromDiskWithoutCompiling) {
    // First process: one compile, then a memory hit.
    EXPECT_EXIT(compile_and_check(2, 1, 0, 1, 0), testing::ExitedWithCode(0), "");
    ASSERT_EQ(cache_files(dir_).size(), 1U);
    EXPECT_EQ(fs::status(dir_).permissions() & fs::perms::all, fs::perms::owner_all);
    // A new process finds it on disk.
    EXPECT_EXIT(compile_and_check(1, 0, 1, 0, 0), testing::ExitedWithCode(0), "");

    // A corrupted file is a miss: recompiled, counted, rewritten. (Each child re-runs this body
    // up to its own statement, so the corruption itself runs as a statement, once.)
    EXPECT_EXIT(
        {
            std::fstream bytes(cache_files(dir_).front(),
                               std::ios::in | std::ios::out | std::ios::binary);
            bytes.seekg(-1, std::ios::end);
            const char last = static_cast<char>(bytes.get());
            bytes.seekp(-1, std::ios::end);
            bytes.put(static_cast<char>(last ^ 0x5a));
            bytes.close();
            std::_Exit(0);
        },
        testing::ExitedWithCode(0), "");
    EXPECT_EXIT(compile_and_check(1, 1, 0, 0, 1), testing::ExitedWithCode(0), "");
    EXPECT_EXIT(compile_and_check(1, 0, 1, 0, 0), testing::ExitedWithCode(0), "");
}

// Two processes that compile the same kernel into one cache at once both succeed, and leave one
// whole file that a third process loads.
TEST_F(CompileCacheDeathTest, TwoProcessesRacingOnOneKeyBothSucceed) {
    EXPECT_EXIT(
        {
            pid_t children[2];
            for (auto& child : children) {
                child = fork();
                if (child == 0) {
                    const kiln::RawModule module(
                        "extern \"C\" __global__ void cached(int* x) { *x = 42; }\n");
                    const auto image = module.compile(kiln::test::compile_targets().front());
                    std::_Exit(image.empty() ? 1 : 0);
                }
            }
            bool all_succeeded = true;
            for (const auto child : children) {
                int status = 0;
                all_succeeded = all_succeeded && child > 0 && waitpid(child, &status, 0) == child &&
                                WIFEXITED(status) && WEXITSTATUS(status) == 0;
            }
            std::_Exit(all_succeeded ? 0 : 1);
        },
        testing::ExitedWithCode(0), "");
    EXPECT_EQ(cache_files(dir_).size(), 1U);
    EXPECT_EXIT(compile_and_check(1, 0, 1, 0, 0), testing::ExitedWithCode(0), "");
}

TEST_F(CompileCacheDeathTest, InMemoryOnlyWritesNothing) {
    setenv("KILN_CACHE_IN_MEMORY", "1", 1);
    EXPECT_EXIT(compile_and_check(3, 1, 0, 2, 0), testing::ExitedWithCode(0), "");
    EXPECT_FALSE(fs::exists(dir_) && !cache_files(dir_).empty());
    EXPECT_FALSE(kiln::compile_cache_directory().has_value());
}

}  // namespace
