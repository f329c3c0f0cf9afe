// The compile cache's memory level: least recently used out first, by the bytes of its images.
#include "core/compile/binary_lru.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

namespace {

using kiln::detail::BinaryLru;
using kiln::detail::CompiledBinary;

CompiledBinary binary_of(std::size_t size, char fill) {
    CompiledBinary binary;
    binary.image.assign(size, fill);
    binary.target = "sm_90";
    return binary;
}

TEST(BinaryLru, EvictsTheLeastRecentlyUsedPastTheLimit) {
    BinaryLru lru(300);
    (void)lru.insert("a", binary_of(100, 'a'));
    (void)lru.insert("b", binary_of(100, 'b'));
    (void)lru.insert("c", binary_of(100, 'c'));
    EXPECT_EQ(lru.bytes(), 300U);
    ASSERT_TRUE(lru.find("a").has_value());  // a is now newer than b and c
    (void)lru.insert("d", binary_of(100, 'd'));
    EXPECT_FALSE(lru.find("b").has_value());
    EXPECT_EQ(lru.entries(), 3U);
    EXPECT_EQ(lru.bytes(), 300U);
    (void)lru.insert("e", binary_of(150, 'e'));  // needs two evictions: c, then a
    EXPECT_FALSE(lru.find("c").has_value());
    EXPECT_FALSE(lru.find("a").has_value());
    EXPECT_EQ(lru.find("d")->image, binary_of(100, 'd').image);
    EXPECT_EQ(lru.find("e")->image, binary_of(150, 'e').image);
    EXPECT_EQ(lru.bytes(), 250U);
}

TEST(BinaryLru, KeepsTheNewestEntryEvenAboveTheLimit) {
    BinaryLru lru(100);
    (void)lru.insert("small", binary_of(50, 's'));
    const auto kept = lru.insert("large", binary_of(500, 'l'));
    EXPECT_EQ(kept.image.size(), 500U);
    EXPECT_EQ(lru.entries(), 1U);
    EXPECT_FALSE(lru.find("small").has_value());
    EXPECT_TRUE(lru.find("large").has_value());
}

TEST(BinaryLru, ZeroMeansNoLimitAndANewLimitAppliesAtOnce) {
    BinaryLru lru(0);
    for (int i = 0; i < 50; ++i) {
        (void)lru.insert(std::to_string(i), binary_of(1000, 'x'));
    }
    EXPECT_EQ(lru.entries(), 50U);
    EXPECT_EQ(lru.bytes(), 50000U);
    lru.set_limit(3000);
    EXPECT_EQ(lru.entries(), 3U);
    EXPECT_TRUE(lru.find("49").has_value());
    EXPECT_TRUE(lru.find("47").has_value());
    EXPECT_FALSE(lru.find("46").has_value());
}

TEST(BinaryLru, AKeyStoredTwiceKeepsItsFirstBinary) {
    BinaryLru lru(0);
    (void)lru.insert("k", binary_of(10, '1'));
    const auto kept = lru.insert("k", binary_of(20, '2'));
    EXPECT_EQ(kept.image, binary_of(10, '1').image);
    EXPECT_EQ(lru.entries(), 1U);
    EXPECT_EQ(lru.bytes(), 10U);
}

}  // namespace
