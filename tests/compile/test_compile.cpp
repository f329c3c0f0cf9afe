// Run-time compilation for the CI targets, with no device: the code objects are inspected.
#include "core/backend.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/elf.hpp"
#include "tests/support/kernels.hpp"

#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using kiln::detail::backend;
using kiln::detail::CompileRequest;

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
            backend().compile(CompileRequest{kiln::test::axpy_source, "axpy", {}, target});
        EXPECT_EQ(binary.target, target);
        const auto elf = kiln::test::read_elf(binary.image);
        EXPECT_EQ(elf.machine, kiln::test::elf_machine);
        EXPECT_TRUE(has(elf.symbols, "axpy"));
        if (!kiln::test::is_cuda) {
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
        (void)backend().compile(CompileRequest{source, "broken", {}, target});
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

// HIPRTC aborts the process on a target its comgr does not know; kiln must refuse it first.
TEST(Compile, UnknownTargetIsRefusedBeforeCompiling) {
    const std::string target = kiln::test::is_cuda ? "sm_13" : "gfx9999";
    try {
        (void)backend().compile(CompileRequest{kiln::test::axpy_source, "axpy", {}, target});
        FAIL() << "expected kiln::Error";
    } catch (const kiln::Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("target '" + target + "' is not supported"), std::string::npos) << what;
        EXPECT_NE(what.find(kiln::test::compile_targets().front()), std::string::npos) << what;
    }
}

}  // namespace
