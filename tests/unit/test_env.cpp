#include "core/env.hpp"

#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <cstdlib>

namespace {

using kiln::detail::env::get;
using kiln::detail::env::parse_index;

TEST(Env, UnsetAndEmptyAreBothAbsent) {
    unsetenv("KILN_TEST_VARIABLE");
    EXPECT_FALSE(get("KILN_TEST_VARIABLE").has_value());
    setenv("KILN_TEST_VARIABLE", "", 1);
    EXPECT_FALSE(get("KILN_TEST_VARIABLE").has_value());
    setenv("KILN_TEST_VARIABLE", "cuda", 1);
    EXPECT_EQ(get("KILN_TEST_VARIABLE"), "cuda");
    unsetenv("KILN_TEST_VARIABLE");
}

TEST(Env, IndexParses) {
    EXPECT_EQ(parse_index("KILN_DEVICE", "0"), 0);
    EXPECT_EQ(parse_index("KILN_DEVICE", "7"), 7);
    EXPECT_EQ(parse_index("KILN_DEVICE", "2147483647"), 2147483647);
}

TEST(Env, BadIndexNamesTheVariableAndTheText) {
    for (const char* text : {"-1", "abc", "3x", " 1", "1.5", "2147483648", ""}) {
        try {
            (void)parse_index("KILN_DEVICE", text);
            ADD_FAILURE() << "accepted '" << text << "'";
        } catch (const kiln::Error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(std::string("KILN_DEVICE='") + text + "'"), std::string::npos)
                << what;
            EXPECT_NE(what.find("non-negative integer"), std::string::npos) << what;
        }
    }
}

TEST(Env, MemoryLimitInBytesOrPercent) {
    using kiln::detail::env::parse_memory_limit;
    const std::size_t total = 80ULL << 30;
    EXPECT_EQ(parse_memory_limit("KILN_GPU_MEMORY_LIMIT", "1073741824", total), 1ULL << 30);
    // 0 and 0% are 0, which the pool reads as no limit (test_pool_limit.cpp).
    EXPECT_EQ(parse_memory_limit("KILN_GPU_MEMORY_LIMIT", "0", total), 0U);
    EXPECT_EQ(parse_memory_limit("KILN_GPU_MEMORY_LIMIT", "0%", total), 0U);
    EXPECT_EQ(parse_memory_limit("KILN_GPU_MEMORY_LIMIT", "50%", total), 40ULL << 30);
    EXPECT_EQ(parse_memory_limit("KILN_GPU_MEMORY_LIMIT", "12.5%", total), 10ULL << 30);
    EXPECT_EQ(parse_memory_limit("KILN_GPU_MEMORY_LIMIT", "100%", total), total);
}

TEST(Env, BadMemoryLimitNamesTheVariable) {
    using kiln::detail::env::parse_memory_limit;
    for (const char* text : {"", "abc", "-5", "10GB", "%", "-1%", "101%", "5%%", "1e3"}) {
        try {
            (void)parse_memory_limit("KILN_GPU_MEMORY_LIMIT", text, 1000);
            ADD_FAILURE() << "accepted '" << text << "'";
        } catch (const kiln::Error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(std::string("KILN_GPU_MEMORY_LIMIT='") + text + "'"),
                      std::string::npos)
                << what;
        }
    }
}

}  // namespace

TEST(Env, ByteSizeWithBinarySuffixes) {
    using kiln::detail::env::parse_byte_size;
    EXPECT_EQ(parse_byte_size("KILN_CACHE_SIZE_LIMIT", "0"), 0U);
    EXPECT_EQ(parse_byte_size("KILN_CACHE_SIZE_LIMIT", "1000"), 1000U);
    EXPECT_EQ(parse_byte_size("KILN_CACHE_SIZE_LIMIT", "3K"), 3U * 1024U);
    EXPECT_EQ(parse_byte_size("KILN_CACHE_SIZE_LIMIT", "512M"), 512ULL * 1024 * 1024);
    EXPECT_EQ(parse_byte_size("KILN_CACHE_SIZE_LIMIT", "2G"), 2ULL << 30);
    EXPECT_EQ(parse_byte_size("KILN_CACHE_SIZE_LIMIT", "1T"), 1ULL << 40);
}

TEST(Env, BadByteSizeNamesTheVariableAndTheText) {
    using kiln::detail::env::parse_byte_size;
    for (const char* text : {"-1", "M", "1.5G", "1g", "1GB", " 1", "16777216T"}) {
        try {
            (void)parse_byte_size("KILN_CACHE_SIZE_LIMIT", text);
            ADD_FAILURE() << "accepted '" << text << "'";
        } catch (const kiln::Error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(std::string("KILN_CACHE_SIZE_LIMIT='") + text + "'"),
                      std::string::npos)
                << what;
            EXPECT_NE(what.find("suffix K, M, G or T"), std::string::npos) << what;
        }
    }
}
