// How RawKernel arguments bind to the parameters a kernel declares, without a device: integers
// convert between widths and signedness when the value fits, everything else must match.
#include "core/kernels/raw/raw_arguments.hpp"
#include "core/kernels/raw/signature.hpp"

#include <kiln/error.hpp>
#include <kiln/raw_kernel.hpp>

#include <gtest/gtest.h>

#include <climits>
#include <complex>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using kiln::KernelArg;
using kiln::detail::bind_raw_argument;
using kiln::detail::KernelParameter;

const std::vector<KernelParameter>& parameters() {
    static const auto params = *kiln::detail::kernel_signature(R"(
        extern "C" __global__ void scale(float* x, unsigned int n, int m, size_t bytes,
                                         float a, signed char c, long long big, double d) {}
    )",
                                                               "scale");
    return params;
}

// The value a converted argument passes, read back as the parameter's type T.
template <class T>
T passed(std::size_t index, const KernelArg& arg) {
    const auto bytes = bind_raw_argument("scale", index, arg, parameters().at(index));
    EXPECT_TRUE(bytes.has_value()) << "argument " << index + 1 << " should convert";
    T value{};
    if (bytes) {
        std::memcpy(&value, bytes->data(), sizeof(T));
    }
    return value;
}

// The TypeError's message for binding `arg` at `index`, or "" when it binds.
std::string refusal(std::size_t index, const KernelArg& arg) {
    try {
        (void)bind_raw_argument("scale", index, arg, parameters().at(index));
    } catch (const kiln::TypeError& e) {
        return e.what();
    }
    return "";
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(RawArguments, ExactTypesPassAsTheyAre) {
    EXPECT_FALSE(bind_raw_argument("scale", 1, KernelArg(5U), parameters()[1]).has_value());
    EXPECT_FALSE(bind_raw_argument("scale", 2, KernelArg(-5), parameters()[2]).has_value());
    EXPECT_FALSE(
        bind_raw_argument("scale", 3, KernelArg(std::size_t{5}), parameters()[3]).has_value());
    EXPECT_FALSE(bind_raw_argument("scale", 4, KernelArg(1.5F), parameters()[4]).has_value());
    float* pointer = nullptr;
    EXPECT_FALSE(bind_raw_argument("scale", 0, KernelArg(pointer), parameters()[0]).has_value());
}

TEST(RawArguments, IntegersConvertWhenTheValueFits) {
    EXPECT_EQ(passed<unsigned>(1, KernelArg(1000)), 1000U) << "int literal for unsigned int";
    EXPECT_EQ(passed<unsigned>(1, KernelArg(std::int64_t{4'294'967'295})), 4'294'967'295U);
    EXPECT_EQ(passed<unsigned>(1, KernelArg(std::uint8_t{255})), 255U);
    EXPECT_EQ(passed<int>(2, KernelArg(std::size_t{7})), 7) << "size_t for int";
    EXPECT_EQ(passed<int>(2, KernelArg(std::int64_t{INT_MIN})), INT_MIN);
    EXPECT_EQ(passed<int>(2, KernelArg(std::int64_t{INT_MAX})), INT_MAX);
    EXPECT_EQ(passed<std::uint64_t>(3, KernelArg(12)), 12U) << "int for size_t";
    EXPECT_EQ(passed<signed char>(5, KernelArg(-128)), -128);
    EXPECT_EQ(passed<long long>(6, KernelArg(-3)), -3LL);
    EXPECT_EQ(passed<long long>(6, KernelArg(std::uint32_t{4'000'000'000U})), 4'000'000'000LL);
}

TEST(RawArguments, AnIntegerOutOfRangeIsATypeErrorWithTheFigures) {
    const std::string negative = refusal(1, KernelArg(-1));
    EXPECT_TRUE(contains(negative, "RawKernel 'scale'")) << negative;
    EXPECT_TRUE(contains(negative, "argument 2 ('n')")) << negative;
    EXPECT_TRUE(contains(negative, "int32 (-1)")) << negative;
    EXPECT_TRUE(contains(negative, "'unsigned int n'")) << negative;
    EXPECT_TRUE(contains(negative, "uint32")) << negative;

    const std::string too_big = refusal(2, KernelArg(std::int64_t{INT_MAX} + 1));
    EXPECT_TRUE(contains(too_big, "argument 3 ('m')")) << too_big;
    EXPECT_TRUE(contains(too_big, "2147483648")) << too_big;
    EXPECT_TRUE(contains(too_big, "'int m'")) << too_big;

    EXPECT_TRUE(contains(refusal(1, KernelArg(std::uint64_t{1} << 32)), "4294967296"));
    EXPECT_TRUE(contains(refusal(3, KernelArg(std::int64_t{-1})), "'size_t bytes'"));
    EXPECT_TRUE(contains(refusal(5, KernelArg(128)), "'signed char c'"));
    EXPECT_TRUE(contains(refusal(6, KernelArg(std::uint64_t{1} << 63)), "9223372036854775808"));
}

TEST(RawArguments, FloatingPointAndOtherKindsStayExact) {
    const std::string dbl = refusal(4, KernelArg(2.5));
    EXPECT_TRUE(contains(dbl, "argument 5 ('a') is a scalar of float64 (2.5)")) << dbl;
    EXPECT_TRUE(contains(dbl, "'float a'")) << dbl;
    EXPECT_TRUE(contains(dbl, "exactly that type")) << dbl;
    EXPECT_FALSE(refusal(4, KernelArg(2)).empty()) << "an int for a float parameter";
    EXPECT_FALSE(refusal(7, KernelArg(1.5F)).empty()) << "a float for a double parameter";
    EXPECT_FALSE(refusal(2, KernelArg(1.0)).empty()) << "a double for an int parameter";
    EXPECT_FALSE(refusal(2, KernelArg(true)).empty()) << "a bool for an int parameter";
    EXPECT_FALSE(refusal(1, KernelArg(std::complex<double>(1, 0))).empty());
    EXPECT_FALSE(refusal(0, KernelArg(3)).empty()) << "an int for a pointer";
    const double* wrong = nullptr;
    EXPECT_TRUE(contains(refusal(0, KernelArg(wrong)), "a pointer to float64"));
}

}  // namespace
