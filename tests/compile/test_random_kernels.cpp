// kiln::random's generated kernels, plain and blocked (kiln::distributed::random's), compile for
// every CI target, with no device.
#include "core/backend.hpp"
#include "core/compile/compile_cache.hpp"
#include "core/random/kernels.hpp"
#include "dialects/gpu/dialect.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/elf.hpp"

#include <kiln/dtype.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace {

using kiln::detail::RandomDistribution;

void expect_compiles(RandomDistribution distribution, kiln::DType dtype,
                     const std::string& target) {
    for (const bool blocked : {false, true}) {
        SCOPED_TRACE(std::string(kiln::name(dtype)) + " for " + target +
                     (blocked ? ", blocked" : ""));
        const auto source = kiln::detail::random_source(
            distribution, dtype, kiln::detail::gpu_dialect::dialect(), blocked);
        const auto binary = kiln::detail::compile_uncached(
            {source, kiln::detail::random_kernel_name, {}, {}}, target);
        const auto elf = kiln::test::read_elf(binary.image);
        EXPECT_EQ(elf.machine, kiln::test::elf_machine());
        EXPECT_NE(
            std::find(elf.symbols.begin(), elf.symbols.end(), kiln::detail::random_kernel_name),
            elf.symbols.end());
    }
}

TEST(RandomKernels, UniformAndNormalCompileForEveryFloatingDtypeAndTarget) {
    for (const auto& target : kiln::test::compile_targets()) {
        for (auto dtype : {kiln::float16, kiln::float32, kiln::float64}) {
            expect_compiles(RandomDistribution::uniform, dtype, target);
            expect_compiles(RandomDistribution::normal, dtype, target);
        }
    }
}

TEST(RandomKernels, IntegersCompileForEveryIntegerDtypeAndTarget) {
    for (const auto& target : kiln::test::compile_targets()) {
        for (auto dtype : {kiln::int8, kiln::int16, kiln::int32, kiln::int64, kiln::uint8,
                           kiln::uint16, kiln::uint32, kiln::uint64}) {
            expect_compiles(RandomDistribution::integers, dtype, target);
        }
    }
}

}  // namespace
