// Every variant of kiln's built-in kernels compiles for the CI targets, with no device.
#include "core/backend.hpp"
#include "core/codegen/builtin_kernels.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/elf.hpp"

#include <kiln/dtype.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using kiln::detail::backend;

constexpr auto all_dtypes = {kiln::bool_,     kiln::int8,      kiln::int16,   kiln::int32,
                             kiln::int64,     kiln::uint8,     kiln::uint16,  kiln::uint32,
                             kiln::uint64,    kiln::float16,   kiln::float32, kiln::float64,
                             kiln::complex64, kiln::complex128};

void expect_compiles(const std::string& source, const char* kernel, const std::string& target) {
    const auto binary = backend().compile({source, kernel, {}, target});
    const auto elf = kiln::test::read_elf(binary.image);
    EXPECT_EQ(elf.machine, kiln::test::elf_machine);
    EXPECT_NE(std::find(elf.symbols.begin(), elf.symbols.end(), kernel), elf.symbols.end());
}

// All 196 conversions, for the first CI target (the source does not depend on the target).
TEST(BuiltinKernels, CopyBetweenEveryPairOfDtypesCompiles) {
    const auto target = kiln::test::compile_targets().front();
    for (auto from : all_dtypes) {
        for (auto to : all_dtypes) {
            SCOPED_TRACE(std::string(kiln::name(from)) + " -> " + std::string(kiln::name(to)));
            expect_compiles(kiln::detail::copy_source(from, to), "kiln_copy", target);
        }
    }
}

TEST(BuiltinKernels, FillAndRangeCompileForEveryTarget) {
    for (const auto& target : kiln::test::compile_targets()) {
        SCOPED_TRACE(target);
        for (std::size_t bytes : {1, 2, 4, 8, 16}) {
            expect_compiles(kiln::detail::fill_source(bytes), "kiln_fill", target);
        }
        for (auto dtype : all_dtypes) {
            if (kiln::kind(dtype) != 'c' && dtype != kiln::bool_) {
                expect_compiles(kiln::detail::range_source(dtype), "kiln_range", target);
            }
        }
        expect_compiles(kiln::detail::copy_source(kiln::complex128, kiln::float16), "kiln_copy",
                        target);
    }
}

}  // namespace
