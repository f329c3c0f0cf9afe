// KILN_COMPILE_DEBUG: read at every compile, so each test sets it in-process.
#include "tests/support/backend_under_test.hpp"

#include <kiln/compile_cache.hpp>
#include <kiln/error.hpp>
#include <kiln/raw_module.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// Sets KILN_COMPILE_DEBUG for one scope. Each test runs on one thread, so the environment may
// change under it.
class CompileDebug {
public:
    explicit CompileDebug(const char* value) {
        setenv("KILN_COMPILE_DEBUG", value, 1);  // NOLINT(concurrency-mt-unsafe): one thread
    }
    ~CompileDebug() {
        unsetenv("KILN_COMPILE_DEBUG");  // NOLINT(concurrency-mt-unsafe): one thread
    }
    CompileDebug(const CompileDebug&) = delete;
    CompileDebug& operator=(const CompileDebug&) = delete;
    CompileDebug(CompileDebug&&) = delete;
    CompileDebug& operator=(CompileDebug&&) = delete;
};

bool has_section_name(const std::vector<char>& image, const std::string& name) {
    return std::string(image.begin(), image.end()).find(name) != std::string::npos;
}

const kiln::RawModule& module() {
    static const kiln::RawModule m(
        "extern \"C\" __global__ void debugged(int* x, int n) {\n"
        "    for (int i = 0; i < n; ++i) {\n"
        "        x[i] += i;\n"
        "    }\n"
        "}\n");
    return m;
}

// DWARF's line table and debug info (HIPRTC 5.2 takes -g for gfx90a and the other CI targets).
TEST(CompileDebug, AddsLineTableAndDebugInfoForEveryCiTarget) {
    for (const auto& target : kiln::test::compile_targets()) {
        SCOPED_TRACE(target);
        const auto plain = module().compile(target);
        EXPECT_FALSE(has_section_name(plain, ".debug_info"));
        EXPECT_FALSE(has_section_name(plain, ".debug_line"));
        const CompileDebug on("1");
        const auto debug = module().compile(target);
        EXPECT_TRUE(has_section_name(debug, ".debug_info"));
        EXPECT_TRUE(has_section_name(debug, ".debug_line"));
    }
}

TEST(CompileDebug, ZeroMeansOff) {
    const auto target = kiln::test::compile_targets().front();
    const CompileDebug off("0");
    EXPECT_FALSE(has_section_name(module().compile(target), ".debug_info"));
}

// The debug binary has its own cache entry: the memory level does not hand back the plain one.
TEST(CompileDebug, IsPartOfTheCacheKey) {
    const auto target = kiln::test::compile_targets().back();
    const kiln::RawModule fresh("extern \"C\" __global__ void keyed(int* x) { *x = 7; }\n");
    (void)fresh.compile(target);
    const auto before = kiln::compile_cache_statistics();
    (void)fresh.compile(target);
    const auto plain_again = kiln::compile_cache_statistics();
    EXPECT_EQ(plain_again.memory_hits, before.memory_hits + 1);
    const CompileDebug on("yes");
    (void)fresh.compile(target);
    const auto debug = kiln::compile_cache_statistics();
    EXPECT_EQ(debug.memory_hits, plain_again.memory_hits);
    EXPECT_EQ(debug.compiles + debug.disk_hits, plain_again.compiles + plain_again.disk_hits + 1);
}

TEST(CompileDebug, OptionsShowInCompileErrors) {
    const std::string expected = kiln::test::is_nvidia() ? "-G" : "-g";
    const kiln::RawModule broken("extern \"C\" __global__ void broken() { undefined_name; }\n");
    const CompileDebug on("1");
    try {
        (void)broken.compile(kiln::test::compile_targets().front());
        FAIL() << "expected kiln::CompileError";
    } catch (const kiln::CompileError& e) {
        const auto& options = e.options();
        EXPECT_NE(std::find(options.begin(), options.end(), expected), options.end());
    }
}

}  // namespace
