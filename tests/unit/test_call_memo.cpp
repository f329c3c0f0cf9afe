// The per-thread call memo: values found by owner, device and argument kinds, and entries held by
// a caller never replaced while held (a replay may run calls that remember others).
#include "core/kernels/call_memo.hpp"

#include <gtest/gtest.h>

#include <kiln/argument.hpp>

#include <array>
#include <cstdint>
#include <memory>

namespace {

using Memo = kiln::detail::CallMemo<std::shared_ptr<const int>>;

// One float32 scalar: a memo key with no device memory.
const std::array<kiln::Argument, 1> one_scalar{kiln::Scalar(1.0F)};
const kiln::detail::CallSignature no_options{};

void remember(Memo& memo, std::uint64_t owner, int value) {
    memo.remember(owner, 0, one_scalar, no_options, std::make_shared<const int>(value));
}

TEST(CallMemo, FindsByOwnerDeviceAndArgumentKinds) {
    Memo memo;
    remember(memo, 1, 10);
    const Memo::Held found = memo.find(1, 0, one_scalar, no_options);
    ASSERT_TRUE(found);
    EXPECT_EQ(**found, 10);
    EXPECT_FALSE(memo.find(2, 0, one_scalar, no_options));
    EXPECT_FALSE(memo.find(1, 1, one_scalar, no_options));
    const std::array<kiln::Argument, 1> float64_scalar{kiln::Scalar(1.0)};
    EXPECT_FALSE(memo.find(1, 0, float64_scalar, no_options));
}

TEST(CallMemo, AHeldEntryOutlivesLaterRemembering) {
    Memo memo;
    for (std::uint64_t owner = 1; owner <= 8; ++owner) {
        remember(memo, owner, static_cast<int>(owner));
    }
    const Memo::Held held = memo.find(1, 0, one_scalar, no_options);
    ASSERT_TRUE(held);
    const std::shared_ptr<const int>& value = *held;
    // Sixteen more calls: without the hold, the oldest entry (owner 1) would go first.
    for (std::uint64_t owner = 100; owner < 116; ++owner) {
        remember(memo, owner, static_cast<int>(owner));
    }
    EXPECT_EQ(value.use_count(), 1);
    EXPECT_EQ(*value, 1);
    EXPECT_TRUE(memo.find(1, 0, one_scalar, no_options));
    EXPECT_TRUE(memo.find(115, 0, one_scalar, no_options));
    EXPECT_FALSE(memo.find(2, 0, one_scalar, no_options));
}

TEST(CallMemo, RemembersNothingWhenEveryEntryIsHeld) {
    Memo memo;
    for (std::uint64_t owner = 1; owner <= 8; ++owner) {
        remember(memo, owner, static_cast<int>(owner));
    }
    {
        const Memo::Held h1 = memo.find(1, 0, one_scalar, no_options);
        const Memo::Held h2 = memo.find(2, 0, one_scalar, no_options);
        const Memo::Held h3 = memo.find(3, 0, one_scalar, no_options);
        const Memo::Held h4 = memo.find(4, 0, one_scalar, no_options);
        const Memo::Held h5 = memo.find(5, 0, one_scalar, no_options);
        const Memo::Held h6 = memo.find(6, 0, one_scalar, no_options);
        const Memo::Held h7 = memo.find(7, 0, one_scalar, no_options);
        const Memo::Held h8 = memo.find(8, 0, one_scalar, no_options);
        remember(memo, 9, 9);
        EXPECT_FALSE(memo.find(9, 0, one_scalar, no_options));
        for (std::uint64_t owner = 1; owner <= 8; ++owner) {
            EXPECT_TRUE(memo.find(owner, 0, one_scalar, no_options)) << owner;
        }
    }
    // Released: the next call takes the oldest entry's place.
    remember(memo, 9, 9);
    EXPECT_TRUE(memo.find(9, 0, one_scalar, no_options));
}

}  // namespace
