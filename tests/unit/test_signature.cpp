#include "core/kernels/raw/signature.hpp"

#include <gtest/gtest.h>

namespace {

using kiln::detail::kernel_signature;

TEST(Signature, ReadsScalarsPointersAndNames) {
    const auto params = kernel_signature(R"(
        // extern "C" __global__ void axpy(int commented_out);
        extern "C" __global__ void axpy(const float* __restrict__ x, float* y, float a,
                                        unsigned int n, long long m, complex<double> z,
                                        size_t bytes, MyStruct s) {}
    )",
                                         "axpy");
    ASSERT_TRUE(params.has_value());
    ASSERT_EQ(params->size(), 8U);
    EXPECT_TRUE((*params)[0].pointer);
    EXPECT_EQ((*params)[0].pointee, kiln::float32);
    EXPECT_EQ((*params)[0].name, "x");
    EXPECT_EQ((*params)[2].scalar, kiln::float32);
    EXPECT_EQ((*params)[3].scalar, kiln::uint32);
    EXPECT_EQ((*params)[3].name, "n");
    EXPECT_EQ((*params)[4].scalar, kiln::int64);
    EXPECT_EQ((*params)[4].name, "m");
    EXPECT_EQ((*params)[5].scalar, kiln::complex128);
    EXPECT_EQ((*params)[6].scalar, kiln::uint64);
    EXPECT_FALSE((*params)[7].scalar.has_value()) << "unknown types go unchecked";
    EXPECT_FALSE((*params)[7].pointer);
}

TEST(Signature, EmptyAndVoidParameterLists) {
    EXPECT_EQ(kernel_signature("extern \"C\" __global__ void f() {}", "f")->size(), 0U);
    EXPECT_EQ(kernel_signature("extern \"C\" __global__ void f(void) {}", "f")->size(), 0U);
    const auto p = kernel_signature("extern \"C\" __global__ void f(void* p) {}", "f");
    ASSERT_EQ(p->size(), 1U);
    EXPECT_TRUE((*p)[0].pointer);
}

TEST(Signature, UnreadableSignaturesAreNotChecked) {
    EXPECT_FALSE(kernel_signature("template <class T> __global__ void f(T* x) {}", "f"));
    EXPECT_FALSE(kernel_signature("__device__ void f(int x) {}", "f")) << "not a kernel";
    EXPECT_FALSE(kernel_signature("extern \"C\" __global__ void g(int x) {}", "f"));
    EXPECT_FALSE(kernel_signature("__global__ void f(int) {}\n__global__ void f(float) {}", "f"))
        << "overloads";
    EXPECT_FALSE(kernel_signature("extern \"C\" __global__ void ff(int x) {}", "f"))
        << "a longer name is another name";
}

}  // namespace
