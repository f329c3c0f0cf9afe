#include "core/kernels/collapse.hpp"

#include <gtest/gtest.h>

namespace {

using kiln::detail::collapse_dims;

TEST(Collapse, ContiguousOperandsBecomeOneAxis) {
    const auto c = collapse_dims({2, 3, 4}, {{48, 16, 4}, {96, 32, 8}});
    EXPECT_EQ(c.shape, (kiln::Shape{24}));
    EXPECT_EQ(c.strides[0], (kiln::Strides{4}));
    EXPECT_EQ(c.strides[1], (kiln::Strides{8}));
}

TEST(Collapse, BroadcastAndTransposedAxesStaySeparate) {
    // (8192, 8192) float32 against a row broadcast over axis 0 (stride 0): no merge.
    const auto row = collapse_dims({8192, 8192}, {{32768, 4}, {0, 4}});
    EXPECT_EQ(row.shape, (kiln::Shape{8192, 8192}));
    EXPECT_EQ(row.strides[1], (kiln::Strides{0, 4}));
    // A transposed operand keeps both axes.
    const auto t = collapse_dims({4, 5}, {{20, 4}, {4, 16}});
    EXPECT_EQ(t.shape, (kiln::Shape{4, 5}));
}

TEST(Collapse, ExtentOneAxesVanishAndEmptyStaysEmpty) {
    const auto c = collapse_dims({1, 6, 1}, {{999, 8, 123}});
    EXPECT_EQ(c.shape, (kiln::Shape{6}));
    EXPECT_EQ(c.strides[0], (kiln::Strides{8}));
    EXPECT_TRUE(collapse_dims({}, {{}}).shape.empty()) << "0-d stays 0-d";
    EXPECT_EQ(collapse_dims({3, 0, 2}, {{0, 16, 8}}).shape, (kiln::Shape{0}));
    // A strided (every other element) operand merges with its outer axis when the steps chain.
    const auto s = collapse_dims({3, 4}, {{64, 16}});
    EXPECT_EQ(s.shape, (kiln::Shape{12}));
    EXPECT_EQ(s.strides[0], (kiln::Strides{16}));
}

}  // namespace
