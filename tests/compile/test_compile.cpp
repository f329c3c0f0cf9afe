// Run-time compilation for the CI targets, with no device: the code objects are inspected.
#include "core/backend.hpp"
#include "core/compile/compile_cache.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/elf.hpp"
#include "tests/support/kernels.hpp"

#include <kiln/error.hpp>
#include <kiln/raw_module.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using kiln::detail::backend;

bool has(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

TEST(Compile, CompilerKnowsEveryCiTarget) {
    const auto targets = backend().supported_targets();
    for (const auto& target : kiln::test::compile_targets()) {
        EXPECT_TRUE(has(targets, target)) << target;
    }
}

TEST(Compile, EveryCiTargetGivesAnElfWithTheKernel) {
    for (const auto& target : kiln::test::compile_targets()) {
        SCOPED_TRACE(target);
        const auto binary =
            kiln::detail::compile_uncached({kiln::test::axpy_source, "axpy", {}, {}}, target);
        EXPECT_EQ(binary.target, target);
        const auto elf = kiln::test::read_elf(binary.image);
        EXPECT_EQ(elf.machine, kiln::test::elf_machine());
        EXPECT_TRUE(has(elf.symbols, "axpy"));
        if (kiln::test::is_amd()) {
            EXPECT_TRUE(has(elf.symbols, "axpy.kd")) << "AMD kernel descriptor missing";
        }
    }
}

TEST(Compile, ErrorCarriesTheLogTheOptionsAndTheSource) {
    const std::string source =
        "extern \"C\" __global__ void broken(float* x) {\n"
        "    x[0] = undefined_name;\n"
        "}\n";
    const auto target = kiln::test::compile_targets().front();
    try {
        (void)kiln::detail::compile_uncached({source, "broken", {}, {}}, target);
        FAIL() << "expected kiln::CompileError";
    } catch (const kiln::CompileError& e) {
        EXPECT_EQ(e.kernel(), "broken");
        EXPECT_NE(e.log().find("undefined_name"), std::string::npos) << e.log();
        EXPECT_NE(e.numbered_source().find("2\t    x[0] = undefined_name;"), std::string::npos);
        const auto& options = e.options();
        EXPECT_TRUE(std::any_of(options.begin(), options.end(), [&](const std::string& o) {
            return o.find(target) != std::string::npos;
        }));
    }
}

// Name expressions give lowered (mangled) names that the code object really defines.
TEST(Compile, NameExpressionsGiveLoweredNamesInTheCodeObject) {
    const std::string source = "template <class T> __global__ void scale(T* x, T a) { *x *= a; }\n";
    for (const auto& target : kiln::test::compile_targets()) {
        SCOPED_TRACE(target);
        const auto binary = kiln::detail::compile_uncached(
            {source, "scale", {}, {"scale<float>", "scale<double>"}}, target);
        ASSERT_EQ(binary.lowered_names.size(), 2U);
        EXPECT_EQ(binary.lowered_names[0].first, "scale<float>");
        EXPECT_NE(binary.lowered_names[0].second, binary.lowered_names[1].second);
        const auto elf = kiln::test::read_elf(binary.image);
        for (const auto& [expression, lowered] : binary.lowered_names) {
            EXPECT_TRUE(has(elf.symbols, lowered)) << expression << " -> " << lowered;
        }
    }
}

TEST(Compile, RawModuleCompilesForAnExplicitTargetWithoutADevice) {
    const kiln::RawModule module("extern \"C\" __global__ void k(int* x) { *x = 1; }\n");
    for (const auto& target : kiln::test::compile_targets()) {
        const auto elf = kiln::test::read_elf(module.compile(target));
        EXPECT_EQ(elf.machine, kiln::test::elf_machine());
        EXPECT_TRUE(has(elf.symbols, "k"));
    }
    EXPECT_THROW((void)module.compile(""), kiln::Error);
}

// HIPRTC aborts the process on a target its comgr does not know; kiln must refuse it first.
TEST(Compile, UnknownTargetIsRefusedBeforeCompiling) {
    const std::string target = kiln::test::is_nvidia() ? "sm_13" : "gfx9999";
    try {
        (void)kiln::detail::compile_uncached({kiln::test::axpy_source, "axpy", {}, {}}, target);
        FAIL() << "expected kiln::Error";
    } catch (const kiln::Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("target '" + target + "' is not supported"), std::string::npos) << what;
        EXPECT_NE(what.find(kiln::test::compile_targets().front()), std::string::npos) << what;
    }
}

}  // namespace
