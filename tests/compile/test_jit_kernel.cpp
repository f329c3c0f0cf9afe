// JIT kernels' generated sources compile for every CI target with no device, and a compile error
// in a body names this file and the line of the macro's name.
#include "core/compile/compile_cache.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/elf.hpp"

#include <kiln/error.hpp>
#include <kiln/jit_kernel.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace {

bool has(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

KILN_JIT_FUNCTION(long long, smallest_prime_factor, (long long k), {
    for (long long p = 2; p * p <= k; ++p) {
        if (k % p == 0)
            return p;
    }
    return k;
});

constexpr int factor_line = __LINE__ + 1;
KILN_JIT_KERNEL_WITH(factor_sums, (const long long* a, long long* out, long long n),
                     (kiln::JitConfig{.uses = {smallest_prime_factor},
                                      .preamble = "#define KILN_TEST_ONE 1"}),
                     {
                         long long i = blockDim.x * (long long)blockIdx.x + threadIdx.x;
                         if (i >= n)
                             return;
                         long long sum = 0;
                         for (long long k = a[i]; k > KILN_TEST_ONE;) {
                             long long p = smallest_prime_factor(k);
                             sum += p;
                             k /= p;
                         }
                         out[i] = sum;
                     });

constexpr int axpy_line = __LINE__ + 1;
KILN_JIT_KERNEL_TEMPLATE(axpy, (class T), (T a, const T* x, T* y, int n), {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n)
        y[i] += a * x[i];
});

constexpr int broken_line = __LINE__ + 1;
KILN_JIT_KERNEL(broken, (float* x, int n), {
    int i = threadIdx.x;
    if (i < n)
        x[i] = undefined_name;
});

TEST(JitKernel, SourceKeepsTheUsersFileAndLine) {
    const std::string& source = factor_sums.source();
    const std::string directive =
        "#line " + std::to_string(factor_line) + " \"" + std::string(__FILE__) + "\"\n";
    // The preamble first, then the helper, then the kernel, each after its own #line.
    const auto preamble = source.find("#line 1 \"preamble of factor_sums\"\n#define KILN_TEST_ONE");
    const auto helper = source.find("__device__ long long smallest_prime_factor(long long k) {");
    const auto kernel =
        source.find(directive +
                    "extern \"C\" __global__ void factor_sums(const long long* a, long long* out, "
                    "long long n) { long long i = ");
    EXPECT_EQ(preamble, 0U) << source;
    ASSERT_NE(helper, std::string::npos) << source;
    ASSERT_NE(kernel, std::string::npos) << source;
    EXPECT_LT(helper, kernel);
    // Stringising puts the whole body on the directive's line.
    EXPECT_EQ(source.find('\n', kernel + directive.size()), source.size() - 1);
    // Exactly: each run of white space, line breaks included, becomes one space.
    EXPECT_EQ(axpy.source(), "#line " + std::to_string(axpy_line) + " \"" + std::string(__FILE__) +
                                 "\"\ntemplate <class T> __global__ void axpy(T a, const T* x, T* "
                                 "y, int n) { int i = blockDim.x * blockIdx.x + threadIdx.x; if "
                                 "(i < n) y[i] += a * x[i]; }\n");
}

TEST(JitKernel, CompilesForEveryCiTarget) {
    for (const auto& target : kiln::test::compile_targets()) {
        SCOPED_TRACE(target);
        const auto elf = kiln::test::read_elf(factor_sums.compile(target));
        EXPECT_EQ(elf.machine, kiln::test::elf_machine());
        EXPECT_TRUE(has(elf.symbols, "factor_sums"));
        const auto binary = kiln::detail::compile_uncached(
            {axpy.source(), axpy.name(), {}, {"axpy<float>", "axpy<double>"}}, target);
        ASSERT_EQ(binary.lowered_names.size(), 2U);
        const auto template_elf = kiln::test::read_elf(binary.image);
        for (const auto& [expression, lowered] : binary.lowered_names) {
            EXPECT_TRUE(has(template_elf.symbols, lowered)) << expression << " -> " << lowered;
        }
    }
}

TEST(JitKernel, CompileErrorNamesThisFileAndTheMacrosLine) {
    const auto target = kiln::test::compile_targets().front();
    try {
        (void)broken.compile(target);
        FAIL() << "expected kiln::CompileError";
    } catch (const kiln::CompileError& e) {
        EXPECT_EQ(e.kernel(), "broken");
        const std::string file = __FILE__;
        // NVRTC (CUDA, and HIP on NVIDIA) writes "file(line): error", HIPRTC on AMD (clang)
        // "file:line:column: error".
        const std::string at = kiln::test::is_nvidia()
                                   ? file + "(" + std::to_string(broken_line) + "): error"
                                   : file + ":" + std::to_string(broken_line) + ":";
        EXPECT_NE(e.log().find(at), std::string::npos) << e.log();
        EXPECT_NE(e.log().find("undefined_name"), std::string::npos) << e.log();
        // Only that line: the body has no line of its own.
        const std::string next = kiln::test::is_nvidia()
                                     ? file + "(" + std::to_string(broken_line + 2) + ")"
                                     : file + ":" + std::to_string(broken_line + 2) + ":";
        EXPECT_EQ(e.log().find(next), std::string::npos) << e.log();
    }
}

}  // namespace
