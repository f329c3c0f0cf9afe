#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(Errors, AllDeriveFromKilnError) {
    EXPECT_THROW(throw kiln::NoDevice("x"), kiln::Error);
    EXPECT_THROW(throw kiln::TypeError("x"), kiln::Error);
    EXPECT_THROW(throw kiln::ShapeError("x"), kiln::Error);
    EXPECT_THROW(throw kiln::BackendError("cudaMalloc", 2, "out of memory"), kiln::Error);
    EXPECT_THROW(throw kiln::OutOfMemory(1, 2, 3), kiln::Error);
    EXPECT_THROW(throw kiln::CompileError("k", "log", {}, "src"), kiln::Error);
}

TEST(Errors, BackendErrorNamesCallCodeAndText) {
    const kiln::BackendError e("cudaMalloc", 2, "out of memory");
    EXPECT_EQ(e.call(), "cudaMalloc");
    EXPECT_EQ(e.code(), 2);
    EXPECT_EQ(e.text(), "out of memory");
    EXPECT_STREQ(e.what(), "kiln: cudaMalloc failed: out of memory (code 2)");
}

TEST(Errors, OutOfMemoryGivesTheFigures) {
    const kiln::OutOfMemory e(1024, 4096, 8192);
    EXPECT_EQ(e.requested(), 1024U);
    EXPECT_EQ(e.used(), 4096U);
    EXPECT_EQ(e.limit(), 8192U);
    const std::string what = e.what();
    EXPECT_TRUE(contains(what, "1024 bytes")) << what;
    EXPECT_TRUE(contains(what, "4096 bytes in use")) << what;
    EXPECT_TRUE(contains(what, "limit 8192 bytes")) << what;
    EXPECT_FALSE(e.device().has_value());
    EXPECT_FALSE(contains(what, "on device")) << what;

    const kiln::OutOfMemory on_device(1024, 4096, 8192, 3);
    EXPECT_EQ(on_device.device(), std::optional<int>(3));
    EXPECT_STREQ(on_device.what(),
                 "kiln: out of device memory allocating 1024 bytes on device 3 "
                 "(4096 bytes in use, limit 8192 bytes)");
    // A pool without a limit reports the largest size as its limit; the message says so plainly.
    const kiln::OutOfMemory unlimited(1024, 4096, std::numeric_limits<std::size_t>::max());
    EXPECT_TRUE(contains(unlimited.what(), "(4096 bytes in use, no limit set)"))
        << unlimited.what();
}

TEST(Errors, CompileErrorCarriesLogOptionsAndNumberedSource) {
    unsetenv("KILN_DUMP_SOURCE_ON_ERROR");
    const kiln::CompileError e("axpy", "axpy.cu(2): error: identifier \"z\" is undefined",
                               {"-arch=sm_90"}, "first line\nsecond line\n");
    EXPECT_EQ(e.kernel(), "axpy");
    EXPECT_EQ(e.options(), std::vector<std::string>{"-arch=sm_90"});
    EXPECT_EQ(e.numbered_source(), "1\tfirst line\n2\tsecond line\n");
    const std::string what = e.what();
    EXPECT_TRUE(contains(what, "kernel 'axpy'")) << what;
    EXPECT_TRUE(contains(what, "identifier \"z\" is undefined")) << what;
    EXPECT_TRUE(contains(what, "KILN_DUMP_SOURCE_ON_ERROR")) << what;
    EXPECT_FALSE(contains(what, "2\tsecond line")) << what;
}

// A header the compiler could not open: the message says where kiln looked and what it passed.
TEST(Errors, CompileErrorOnAMissingHeaderSaysWhereKilnLooked) {
    unsetenv("KILN_DUMP_SOURCE_ON_ERROR");
    const kiln::HeaderSearch found{
        {"/opt/a/include", "/opt/b/include"}, {"/opt/b/include", "/opt/b/include/cccl"}, "VAR"};
    const kiln::CompileError e("k", "cannot open source file \"x.h\"", {}, "", found);
    EXPECT_EQ(e.header_search().searched, found.searched);
    EXPECT_EQ(e.header_search().used, found.used);
    EXPECT_TRUE(contains(e.what(),
                         "kiln looked for the toolkit's headers in: /opt/a/include, "
                         "/opt/b/include; it passed the include directories "
                         "/opt/b/include, /opt/b/include/cccl (set VAR to choose"))
        << e.what();

    const kiln::CompileError none("k", "log", {}, "", {{"/opt/a/include"}, {}, "VAR"});
    EXPECT_TRUE(contains(none.what(), "in: /opt/a/include; none holds them (set VAR"))
        << none.what();

    const kiln::CompileError plain("k", "log", {}, "");
    EXPECT_TRUE(plain.header_search().searched.empty());
    EXPECT_FALSE(contains(plain.what(), "looked for")) << plain.what();
}

TEST(Errors, DumpSourceOnErrorPutsTheSourceInTheMessage) {
    setenv("KILN_DUMP_SOURCE_ON_ERROR", "1", 1);
    const kiln::CompileError e("axpy", "log", {}, "first line\nsecond line\n");
    unsetenv("KILN_DUMP_SOURCE_ON_ERROR");
    EXPECT_TRUE(contains(e.what(), "1\tfirst line\n2\tsecond line\n")) << e.what();
}

}  // namespace
