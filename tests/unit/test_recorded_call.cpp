// The host fast path's pieces: argument packs replayed with another call's operand bytes, and
// call signatures that tell layouts apart without looking at data.
#include "core/kernels/argument_pack.hpp"
#include "core/kernels/recorded_call.hpp"

#include <gtest/gtest.h>

#include <kiln/ndarray.hpp>

#include <cstring>

namespace {

using kiln::detail::ArgumentPack;
using kiln::detail::ReplayedArguments;

template <class T>
T read(void* at) {
    T value{};
    std::memcpy(&value, at, sizeof value);
    return value;
}

TEST(ArgumentPack, ReplayPatchesOnlyTheOperandBytes) {
    int x = 0;
    int y = 0;
    int scratch = 0;
    unsigned int counter = 0;
    ArgumentPack pack;
    pack.push(static_cast<long long>(1000));
    pack.push_operand_pointer(&x, 0);
    pack.push_dims(std::vector<std::int64_t>{4, 8}, 3);
    pack.begin(alignof(float));
    const float scale = 2.5F;
    pack.append_operand(&scale, sizeof scale, 1);
    pack.push_operand_pointer(nullptr, kiln::detail::scratch_operand);
    pack.push_operand_pointer(nullptr, kiln::detail::counter_operand);
    ASSERT_TRUE(ReplayedArguments::fits(pack));

    const void* new_x = &y;
    const float new_scale = -7.0F;
    const void* new_scratch = &scratch;
    const void* new_counter = &counter;
    const std::array<const void*, 2> operands{&new_x, &new_scale};
    ReplayedArguments replayed(pack, operands, static_cast<const void*>(&new_scratch),
                               static_cast<const void*>(&new_counter));
    void** p = replayed.pointers();
    EXPECT_EQ(read<long long>(p[0]), 1000);
    EXPECT_EQ(read<const void*>(p[1]), &y);
    EXPECT_EQ(read<long long>(p[2]), 4);
    EXPECT_EQ(read<long long>(static_cast<char*>(p[2]) + 8), 8);
    EXPECT_EQ(read<long long>(static_cast<char*>(p[2]) + 16), 0);
    EXPECT_EQ(read<float>(p[3]), -7.0F);
    EXPECT_EQ(read<const void*>(p[4]), &scratch);
    EXPECT_EQ(read<const void*>(p[5]), &counter);
    // The recorded pack itself is unchanged.
    void** original = pack.pointers();
    EXPECT_EQ(read<const void*>(original[1]), &x);
    EXPECT_EQ(read<float>(original[3]), 2.5F);
}

TEST(ArgumentPack, LayoutFollowsSizesAndAlignments) {
    ArgumentPack pack;
    pack.push(static_cast<long long>(1));
    pack.push(3);
    pack.push_operand_pointer(nullptr, 0);
    pack.begin(2);
    const short half = 1;
    pack.append_operand(&half, sizeof half, 1);
    pack.push(static_cast<char>(1));
    const std::vector<kiln::detail::ArgumentSlot> want{
        {0, 8, 8}, {8, 4, 4}, {16, 8, 8}, {24, 2, 2}, {26, 1, 1}};
    EXPECT_EQ(pack.layout(), want);
}

TEST(ArgumentPack, TooLargeToReplay) {
    ArgumentPack pack;
    for (std::size_t p = 0; p <= ReplayedArguments::max_parameters; ++p) {
        pack.push(1);
    }
    EXPECT_FALSE(ReplayedArguments::fits(pack));
}

kiln::detail::CallSignature signature_of(std::initializer_list<kiln::Argument> args) {
    kiln::detail::CallSignature s;
    for (const auto& a : args) {
        s.add(a);
    }
    return s;
}

TEST(CallSignature, ScalarsByDtypeNotValue) {
    EXPECT_EQ(signature_of({kiln::Scalar(1.0)}), signature_of({kiln::Scalar(2.0)}));
    EXPECT_NE(signature_of({kiln::Scalar(1.0)}), signature_of({kiln::Scalar(1.0F)}));
    EXPECT_NE(signature_of({kiln::Scalar(1)}), signature_of({kiln::Scalar(1), kiln::Scalar(1)}));
}

TEST(CallSignature, TooManyWordsIsIncomplete) {
    kiln::detail::CallSignature s;
    for (int w = 0; w < 64; ++w) {
        s.add(w);
    }
    EXPECT_TRUE(s.complete());
    s.add(64);
    EXPECT_FALSE(s.complete());
    kiln::detail::CallRecords records;
    EXPECT_EQ(records.find(s), nullptr);
}

}  // namespace
