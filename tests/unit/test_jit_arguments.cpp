// A JIT kernel's call checks what needs a value before anything reaches a device: an integer
// scalar that does not fit its parameter is a TypeError naming the kernel, where it is written,
// the parameter and the value.
#include "tests/support/expect_error.hpp"

#include <kiln/error.hpp>
#include <kiln/jit_kernel.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace {

constexpr int fill_line = __LINE__ + 1;
KILN_JIT_KERNEL(fill, (unsigned char* x, unsigned char value, int n), {
    if (threadIdx.x < n)
        x[threadIdx.x] = value;
});

TEST(JitArguments, AnIntegerThatDoesNotFitIsATypeError) {
    unsigned char* nowhere = nullptr;
    const std::string at = "kiln: JIT kernel 'fill' (" + std::string(__FILE__) + ":" +
                           std::to_string(fill_line) + "): ";
    kiln::test::expect_error<kiln::TypeError>(
        [&] { fill(kiln::Dim3{1}, kiln::Dim3{1}, nowhere, 256, 1); },
        at + "argument 2 ('value', declared 'unsigned char value') is 256, out of range for the "
             "parameter's uint8");
    kiln::test::expect_error<kiln::TypeError>(
        [&] { fill(kiln::Dim3{1}, kiln::Dim3{1}, nowhere, 7, std::int64_t{-3} << 40); },
        at + "argument 3 ('n', declared 'int n') is -3298534883328, out of range for the "
             "parameter's int32");
}

TEST(JitArguments, TheSourceIsTheKernelAfterALineDirective) {
    EXPECT_EQ(fill.name(), "fill");
    EXPECT_EQ(fill.source(), "#line " + std::to_string(fill_line) + " \"" + std::string(__FILE__) +
                                 "\"\nextern \"C\" __global__ void fill(unsigned char* x, unsigned "
                                 "char value, int n) { if (threadIdx.x < n) x[threadIdx.x] = "
                                 "value; }\n");
}

}  // namespace
