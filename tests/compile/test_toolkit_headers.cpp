// Run-time compiled sources include the vendor toolkit's headers: where kiln finds them, what a
// missing one says, and kernels using cooperative groups, CUB, fp16 and complex headers compiled
// for every CI target, with no device.
#include "backends/toolkit_headers.hpp"
#include "core/backend.hpp"
#include "core/codegen/device_prelude.hpp"
#include "core/compile/compile_cache.hpp"
#include "core/compile/compile_key.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/elf.hpp"
#include "tests/support/toolkit_kernels.hpp"

#include <kiln/error.hpp>
#include <kiln/raw_module.hpp>

#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using kiln::detail::backend;
using kiln::detail::find_toolkit_headers;
using kiln::detail::ToolkitLayout;

bool has(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

std::string header_search_variable() {
    return kiln::test::is_nvidia() ? "KILN_CUDA_INCLUDE_PATH" : "KILN_HIP_INCLUDE_PATH";
}

// The HIP version HIPRTC reports after its own ("HIPRTC 14.0 (HIP 5.2.3)"): its major number.
int hip_major_version() {
    const std::string version = backend().compiler_version();
    const auto at = version.find("(HIP ");
    return at == std::string::npos ? 0 : std::atoi(version.c_str() + at + 5);
}

// Compiles `source` for every CI target and checks that each code object defines `kernel`.
void expect_compiles_everywhere(const char* source, const std::string& kernel) {
    const kiln::RawModule module(source);
    for (const auto& target : kiln::test::compile_targets()) {
        SCOPED_TRACE(target);
        try {
            const auto elf = kiln::test::read_elf(module.compile(target));
            EXPECT_EQ(elf.machine, kiln::test::elf_machine());
            EXPECT_TRUE(has(elf.symbols, kernel));
        } catch (const kiln::CompileError& e) {
            ADD_FAILURE() << e.what();
        }
    }
}

TEST(ToolkitHeaders, TheToolkitOnThisMachineIsFoundAndPassed) {
    const auto& toolkit = backend().toolkit_headers();
    ASSERT_FALSE(toolkit.search.used.empty()) << "searched: " << toolkit.search.searched.size();
    const fs::path include = toolkit.search.used.front();
    EXPECT_TRUE(
        fs::exists(include / (kiln::test::is_nvidia() ? "cuda_fp16.h" : "hip/hip_runtime.h")))
        << include;
    EXPECT_EQ(toolkit.search.searched.back(), include.string());
    EXPECT_EQ(toolkit.search.variable, header_search_variable());
    for (const auto& directory : toolkit.search.used) {
        EXPECT_TRUE(has(toolkit.options, "-I" + directory)) << directory;
    }
    if (kiln::test::is_nvidia()) {
        // CUB and libcu++ (which cooperative_groups.h includes): in include/ up to CUDA 12,
        // include/cccl/ from CUDA 13.
        EXPECT_TRUE(std::any_of(toolkit.search.used.begin(), toolkit.search.used.end(),
                                [](const std::string& directory) {
                                    return fs::exists(fs::path(directory) / "cub/cub.cuh") &&
                                           fs::exists(fs::path(directory) / "cuda/std/type_traits");
                                }));
    }
}

// A fake toolkit tree for the search order, with the test's own variables and marker.
class ToolkitSearch : public testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() /
                ("kiln-toolkit-test-" + std::to_string(::getpid()) + "-" +
                 testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root_);
        unsetenv("KILN_TEST_INCLUDE_PATH");
        unsetenv("KILN_TEST_ROOT");
    }
    void TearDown() override {
        unsetenv("KILN_TEST_INCLUDE_PATH");
        unsetenv("KILN_TEST_ROOT");
        fs::remove_all(root_);
    }

    // An include directory holding the marker (and `nested`/ when asked).
    std::string toolkit(const std::string& relative, bool nested = false) {
        const fs::path include = root_ / relative;
        fs::create_directories(nested ? include / "nested" : include);
        std::ofstream(include / "marker.h") << "// marker\n";
        return fs::canonical(include).string();
    }
    std::string path(const std::string& relative) const {
        return fs::weakly_canonical(root_ / relative).string();
    }

    ToolkitLayout layout() const {
        return {.override_variable = "KILN_TEST_INCLUDE_PATH",
                .marker = "marker.h",
                .beside_library = {"../include"},
                .root_variables = {"KILN_TEST_ROOT"},
                .under_root = {"include"},
                .standard = {path("standard/include")},
                .nested = {"nested"}};
    }

    fs::path root_;
};

TEST_F(ToolkitSearch, TheToolkitBesideTheCompilerLibraryComesFirst) {
    const auto beside = toolkit("kit/include");
    toolkit("root/include");
    setenv("KILN_TEST_ROOT", (root_ / "root").c_str(), 1);
    const auto found = find_toolkit_headers(layout(), root_ / "kit/lib/libcompiler.so");
    EXPECT_EQ(found.search.searched, std::vector<std::string>{beside});
    EXPECT_EQ(found.search.used, std::vector<std::string>{beside});
    EXPECT_EQ(found.options, std::vector<std::string>{"-I" + beside});
    EXPECT_EQ(found.search.variable, "KILN_TEST_INCLUDE_PATH");
}

TEST_F(ToolkitSearch, ThenTheRootVariablesThenTheStandardPlaces) {
    const auto from_root = toolkit("root/include");
    setenv("KILN_TEST_ROOT", (root_ / "root").c_str(), 1);
    const auto library = root_ / "bare/lib/libcompiler.so";
    auto found = find_toolkit_headers(layout(), library);
    EXPECT_EQ(found.search.searched, (std::vector<std::string>{path("bare/include"), from_root}));
    EXPECT_EQ(found.search.used, std::vector<std::string>{from_root});

    unsetenv("KILN_TEST_ROOT");
    const auto standard = toolkit("standard/include");
    found = find_toolkit_headers(layout(), library);
    EXPECT_EQ(found.search.searched, (std::vector<std::string>{path("bare/include"), standard}));
    EXPECT_EQ(found.search.used, std::vector<std::string>{standard});
}

TEST_F(ToolkitSearch, NestedDirectoriesArePassedAfterTheIncludeDirectory) {
    const auto include = toolkit("kit/include", true);
    const auto found = find_toolkit_headers(layout(), root_ / "kit/lib/libcompiler.so");
    EXPECT_EQ(found.search.used, (std::vector<std::string>{include, include + "/nested"}));
    EXPECT_EQ(found.options,
              (std::vector<std::string>{"-I" + include, "-I" + include + "/nested"}));
}

// A directory reached twice (here through a symbolic link) is looked at once, under its real
// path, so that a link moved to another toolkit changes what is passed and the cache key.
TEST_F(ToolkitSearch, EachDirectoryIsSearchedOnceUnderItsRealPath) {
    fs::create_directories(root_ / "bare/lib");
    fs::create_directory_symlink(root_ / "bare", root_ / "link");
    setenv("KILN_TEST_ROOT", (root_ / "link").c_str(), 1);
    const auto found = find_toolkit_headers(layout(), root_ / "bare/lib/libcompiler.so");
    EXPECT_EQ(found.search.searched,
              (std::vector<std::string>{path("bare/include"), path("standard/include")}));
    EXPECT_TRUE(found.search.used.empty());
    EXPECT_TRUE(found.options.empty());
}

TEST_F(ToolkitSearch, TheOverrideVariableReplacesTheSearch) {
    toolkit("kit/include");
    toolkit("standard/include");
    const auto chosen = toolkit("chosen/include");
    setenv("KILN_TEST_INCLUDE_PATH", (path("missing") + "::" + chosen).c_str(), 1);
    auto found = find_toolkit_headers(layout(), root_ / "kit/lib/libcompiler.so");
    EXPECT_EQ(found.search.searched, (std::vector<std::string>{path("missing"), chosen}));
    EXPECT_EQ(found.search.used, std::vector<std::string>{chosen});

    // An override that holds no toolkit finds none rather than falling back.
    setenv("KILN_TEST_INCLUDE_PATH", path("missing").c_str(), 1);
    found = find_toolkit_headers(layout(), root_ / "kit/lib/libcompiler.so");
    EXPECT_EQ(found.search.searched, std::vector<std::string>{path("missing")});
    EXPECT_TRUE(found.search.used.empty());
}

TEST(ToolkitHeaders, AMissingHeaderIsACompileErrorThatSaysWhereKilnLooked) {
    const auto& toolkit = backend().toolkit_headers();
    const std::string source =
        "#include <kiln_no_such_header.h>\n"
        "extern \"C\" __global__ void k(int* x) { *x = 1; }\n";
    for (const auto& target : kiln::test::compile_targets()) {
        SCOPED_TRACE(target);
        try {
            (void)kiln::detail::compile_uncached({source, "k", {}, {}}, target);
            ADD_FAILURE() << "expected kiln::CompileError";
        } catch (const kiln::CompileError& e) {
            EXPECT_NE(e.log().find("kiln_no_such_header.h"), std::string::npos) << e.log();
            EXPECT_EQ(e.header_search().searched, toolkit.search.searched);
            EXPECT_EQ(e.header_search().used, toolkit.search.used);
            const std::string what = e.what();
            for (const auto& directory : toolkit.search.searched) {
                EXPECT_NE(what.find(directory), std::string::npos) << directory << "\n" << what;
            }
            EXPECT_NE(what.find("kiln looked for the toolkit's headers in: "), std::string::npos)
                << what;
            EXPECT_NE(what.find(header_search_variable()), std::string::npos) << what;
            for (const auto& option : toolkit.options) {
                EXPECT_TRUE(has(e.options(), option)) << option;
            }
        }
    }
    // Other compile errors say nothing of headers.
    try {
        (void)kiln::detail::compile_uncached(
            {"extern \"C\" __global__ void k(int* x) { *x = y; }", "k", {}, {}},
            kiln::test::compile_targets().front());
        ADD_FAILURE() << "expected kiln::CompileError";
    } catch (const kiln::CompileError& e) {
        EXPECT_TRUE(e.header_search().searched.empty());
        EXPECT_EQ(std::string(e.what()).find("looked for"), std::string::npos) << e.what();
    }
}

// The toolkit's include directories follow the program's own options, so a user's directories
// are searched first, and another toolkit's directories make another key.
TEST(ToolkitHeaders, RequestsCarryTheToolkitOptionsInTheirKey) {
    const auto target = kiln::test::compile_targets().front();
    const auto& toolkit = backend().toolkit_headers().options;
    const auto request = kiln::detail::resolve(
        {kiln::test::half_math_source, "half_math", {"-I/opt/user/include"}, {}}, target);
    ASSERT_EQ(request.options.size(), toolkit.size() + 1);
    EXPECT_EQ(request.options.front(), "-I/opt/user/include");
    EXPECT_TRUE(std::equal(toolkit.begin(), toolkit.end(), request.options.begin() + 1));

    const auto key_of = [&](const kiln::detail::CompileRequest& changed) {
        return kiln::detail::compile_key(
            changed, backend().kind(), backend().compiler_version(),
            kiln::detail::headers_digest(
                kiln::detail::device_headers_fingerprint(backend().kind(), changed.target)));
    };
    EXPECT_EQ(key_of(request), request.key);
    auto other_toolkit = request;
    other_toolkit.options.push_back("-I/opt/b/include");
    EXPECT_NE(key_of(other_toolkit), request.key);
}

TEST(ToolkitHeaders, GridSyncThroughCooperativeGroupsCompiles) {
    if (kiln::test::is_amd() && hip_major_version() < 6) {
        GTEST_SKIP() << "HIPRTC of HIP 5 cannot compile hip/hip_cooperative_groups.h: it includes "
                        "<bitset>, whose standard library clashes with the std type traits "
                        "HIPRTC defines itself";
    }
    expect_compiles_everywhere(kiln::test::grid_sum_source, "grid_sum");
}

TEST(ToolkitHeaders, CubBlockReductionCompiles) {
    if (kiln::test::is_amd()) {
        GTEST_SKIP() << "CUB is CUDA's; its HIP counterpart, hipCUB, is not tested (the CI "
                        "machine does not have it)";
    }
    expect_compiles_everywhere(kiln::test::cub_block_sums_source, "block_sums");
}

TEST(ToolkitHeaders, HalfArithmeticThroughTheFp16HeaderCompiles) {
    expect_compiles_everywhere(kiln::test::half_math_source, "half_math");
}

TEST(ToolkitHeaders, ComplexHeaderCompiles) {
    expect_compiles_everywhere(kiln::test::complex_math_source, "complex_math");
}

}  // namespace
