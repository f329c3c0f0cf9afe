// Every variant of kiln's built-in kernels compiles for the CI targets, with no device.
#include "core/backend.hpp"
#include "core/compile/compile_cache.hpp"
#include "core/kernels/builtin/builtin_kernels.hpp"
#include "core/kernels/builtin/matmul_kernel.hpp"
#include "dialects/gpu/dialect.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/elf.hpp"

#include <kiln/dtype.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using kiln::detail::backend;

constexpr auto all_dtypes = {kiln::bool_,     kiln::int8,      kiln::int16,   kiln::int32,
                             kiln::int64,     kiln::uint8,     kiln::uint16,  kiln::uint32,
                             kiln::uint64,    kiln::float16,   kiln::float32, kiln::float64,
                             kiln::complex64, kiln::complex128};

void expect_compiles(const std::string& source, const char* kernel, const std::string& target) {
    const auto binary = kiln::detail::compile_uncached({source, kernel, {}, {}}, target);
    const auto elf = kiln::test::read_elf(binary.image);
    EXPECT_EQ(elf.machine, kiln::test::elf_machine());
    EXPECT_NE(std::find(elf.symbols.begin(), elf.symbols.end(), kernel), elf.symbols.end());
}

// A conversion of the sampled sweep: every pair of one dtype per item size and kind, and each
// remaining dtype to and from float64.
bool sampled(kiln::DType from, kiln::DType to) {
    const auto representative = [](kiln::DType d) {
        return d == kiln::bool_ || d == kiln::int8 || d == kiln::uint32 || d == kiln::int64 ||
               kiln::kind(d) == 'f' || kiln::kind(d) == 'c';
    };
    return (representative(from) && representative(to)) || from == kiln::float64 ||
           to == kiln::float64;
}

// The 196 conversions (a sample of them unless exhaustive) in one module per sweep target, since
// a module each takes minutes: the support code once, then each conversion's kernel under its own
// entry name.
TEST(BuiltinKernels, CopyBetweenEveryPairOfDtypesCompiles) {
    const std::string kernel = "extern \"C\" __global__ void kiln_copy(";
    const std::string first =
        kiln::detail::copy_source(kiln::bool_, kiln::bool_, kiln::detail::gpu_dialect::dialect());
    const std::string support = first.substr(0, first.find(kernel));
    std::string source = support;
    std::vector<std::string> names;
    for (auto from : all_dtypes) {
        for (auto to : all_dtypes) {
            if (!kiln::test::exhaustive() && !sampled(from, to)) {
                continue;
            }
            const std::string whole =
                kiln::detail::copy_source(from, to, kiln::detail::gpu_dialect::dialect());
            ASSERT_EQ(whole.substr(0, support.size()), support);
            names.push_back("kiln_copy_" + std::string(kiln::name(from)) + "_" +
                            std::string(kiln::name(to)));
            source += "extern \"C\" __global__ void " + names.back() + "(" +
                      whole.substr(support.size() + kernel.size());
        }
    }
    for (const auto& target : kiln::test::sweep_targets()) {
        SCOPED_TRACE(target);
        const auto elf = kiln::test::read_elf(
            kiln::detail::compile_uncached({source, names.front(), {}, {}}, target).image);
        EXPECT_EQ(elf.machine, kiln::test::elf_machine());
        for (const auto& name : names) {
            EXPECT_NE(std::find(elf.symbols.begin(), elf.symbols.end(), name), elf.symbols.end())
                << name;
        }
    }
    // And one conversion alone, as a call compiles it.
    expect_compiles(kiln::detail::copy_source(kiln::complex64, kiln::int8,
                                              kiln::detail::gpu_dialect::dialect()),
                    "kiln_copy", kiln::test::compile_targets().front());
}

TEST(BuiltinKernels, FillAndRangeCompileForEveryTarget) {
    for (const auto& target : kiln::test::compile_targets()) {
        SCOPED_TRACE(target);
        for (std::size_t bytes : {1, 2, 4, 8, 16}) {
            expect_compiles(kiln::detail::fill_source(bytes, kiln::detail::gpu_dialect::dialect()),
                            "kiln_fill", target);
        }
        for (auto dtype : all_dtypes) {
            if (kiln::kind(dtype) != 'c' && dtype != kiln::bool_) {
                expect_compiles(
                    kiln::detail::range_source(dtype, kiln::detail::gpu_dialect::dialect()),
                    "kiln_range", target);
            }
        }
        expect_compiles(kiln::detail::copy_source(kiln::complex128, kiln::float16,
                                                  kiln::detail::gpu_dialect::dialect()),
                        "kiln_copy", target);
    }
}

// kiln's matmul kernel, for each kind and accumulator it meets.
TEST(BuiltinKernels, MatmulCompilesForEachKind) {
    const auto target = kiln::test::compile_targets().front();
    for (auto dtype : {kiln::int8, kiln::uint32, kiln::int64, kiln::float16, kiln::float32,
                       kiln::float64, kiln::complex64, kiln::complex128}) {
        SCOPED_TRACE(std::string(kiln::name(dtype)));
        expect_compiles(kiln::detail::matmul_source(dtype, kiln::detail::gpu_dialect::dialect()),
                        "kiln_matmul", target);
    }
}

}  // namespace
