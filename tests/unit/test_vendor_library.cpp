// The run-time loader for vendor libraries, checked with zlib and the maths library in place of a
// vendor's: found under the names and in the places it is told, with every symbol resolved up
// front, or a reason that names what was missing and where it looked. A library the process has
// loaded already is reported by its first path, so paths are compared as files.
#include "backends/dynamic_library.hpp"
#include "backends/vendor_library.hpp"
#include "tests/support/temporary_directory.hpp"

#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <stdlib.h>  // NOLINT(modernize-deprecated-headers): setenv is POSIX

#include <array>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using kiln::detail::DynamicLibrary;
using kiln::detail::LibrarySearch;
using kiln::detail::Symbol;
using kiln::detail::VendorLibrary;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

using Crc32 = unsigned long (*)(unsigned long, const unsigned char*, unsigned);

// zlib's CRC-32 of "hello", as Python's zlib.crc32(b"hello") gives it.
constexpr unsigned long crc32_of_hello = 0x3610a686;

unsigned long crc32_hello(const Symbol<Crc32>& crc32) {
    const std::string text = "hello";
    return crc32(0, reinterpret_cast<const unsigned char*>(text.data()),
                 static_cast<unsigned>(text.size()));
}

// The file the system loader finds for `name`.
std::string system_path(const char* name) {
    const DynamicLibrary library(name);
    EXPECT_TRUE(library) << library.error();
    return library.path();
}

// A fresh directory, with KILN_VENDOR_LIBRARY_PATH and KILN_TEST_ROOT unset for the test and put
// back afterwards.
class LoaderTest : public testing::Test {
protected:
    LoaderTest() {
        for (const char* name : variables) {
            const char* value = std::getenv(name);
            saved_.emplace_back(value != nullptr ? std::optional<std::string>(value)
                                                 : std::nullopt);
            unsetenv(name);
        }
    }
    ~LoaderTest() override {
        for (std::size_t i = 0; i < saved_.size(); ++i) {
            if (saved_[i]) {
                setenv(variables[i], saved_[i]->c_str(), 1);
            } else {
                unsetenv(variables[i]);
            }
        }
    }
    LoaderTest(const LoaderTest&) = delete;
    LoaderTest& operator=(const LoaderTest&) = delete;
    LoaderTest(LoaderTest&&) = delete;
    LoaderTest& operator=(LoaderTest&&) = delete;

    // `name` in the test directory (or its `sub` folder), a link to `target`.
    std::string link(const std::string& name, const std::string& target,
                     const std::string& sub = "") const {
        const fs::path folder = sub.empty() ? dir_.path() : dir_.path() / sub;
        fs::create_directories(folder);
        fs::create_symlink(target, folder / name);
        return (folder / name).string();
    }

    static LibrarySearch search(const char* root_variable = nullptr) {
        LibrarySearch s{"the test library",
                        kiln::detail::versioned_names("libkilntest.so", {3, 2}),
                        {},
                        {},
                        {"lib"},
                        {}};
        if (root_variable != nullptr) {
            s.root_variables.push_back(root_variable);
        }
        return s;
    }

    static constexpr std::array<const char*, 2> variables{"KILN_VENDOR_LIBRARY_PATH",
                                                          "KILN_TEST_ROOT"};
    kiln::test::TemporaryDirectory dir_{"kiln-loader-"};
    std::vector<std::optional<std::string>> saved_;
};

TEST(DynamicLibrary, OpensBySystemNameAndResolvesSymbols) {
    const DynamicLibrary libm("libm.so.6");
    ASSERT_TRUE(libm) << libm.error();
    auto* cosine = reinterpret_cast<double (*)(double)>(libm.symbol("cos"));
    ASSERT_NE(cosine, nullptr);
    EXPECT_EQ(cosine(0.5), std::cos(0.5));
    EXPECT_EQ(libm.symbol("kiln_no_such_function"), nullptr);
    const fs::path path = libm.path();
    EXPECT_TRUE(path.is_absolute()) << path;
    EXPECT_EQ(path.filename(), "libm.so.6");
    EXPECT_TRUE(fs::exists(path)) << path;
}

TEST(DynamicLibrary, MissingFileIsAnEmptyHandleWithTheLoadersReason) {
    const DynamicLibrary missing("libkiln-no-such-library.so.1");
    EXPECT_FALSE(missing);
    EXPECT_TRUE(contains(missing.error(), "libkiln-no-such-library.so.1")) << missing.error();
    EXPECT_EQ(missing.symbol("cos"), nullptr);
    EXPECT_EQ(missing.path(), "");
}

TEST(VersionedNames, EachMajorOnceThenTheUnversionedName) {
    EXPECT_EQ(kiln::detail::versioned_names("libnvrtc.so", {13, 13, 12}),
              (std::vector<std::string>{"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}));
}

// Every name is tried in each place; a file that lacks a registered symbol is passed over for
// the next one that has them all.
TEST_F(LoaderTest, KeepsTheFirstFileThatExportsEverySymbol) {
    link("libkilntest.so.3", system_path("libm.so.6"));  // has no crc32
    const std::string libz = link("libkilntest.so.2", system_path("libz.so.1"));
    setenv("KILN_VENDOR_LIBRARY_PATH", ("/nonexistent:" + dir_.path().string()).c_str(), 1);

    VendorLibrary library(search());
    const Symbol<Crc32> crc32{library, "crc32"};
    EXPECT_EQ(library.load(), "");
    EXPECT_TRUE(fs::equivalent(library.path(), libz)) << library.path();
    EXPECT_EQ(crc32_hello(crc32), crc32_of_hello);
}

TEST_F(LoaderTest, MissingLibraryNamesEveryFileNameAndPlace) {
    setenv("KILN_VENDOR_LIBRARY_PATH", dir_.path().c_str(), 1);
    VendorLibrary library(search());
    const Symbol<Crc32> crc32{library, "crc32"};
    const std::string reason = library.load();
    EXPECT_TRUE(contains(reason, "the test library was not found")) << reason;
    EXPECT_TRUE(contains(reason, "libkilntest.so.3, libkilntest.so.2, libkilntest.so")) << reason;
    EXPECT_TRUE(contains(reason, dir_.path().string() + " (from KILN_VENDOR_LIBRARY_PATH)"))
        << reason;
    EXPECT_FALSE(contains(reason, "system")) << "the variable replaces the default search";
    EXPECT_EQ(library.path(), "");
    try {
        (void)crc32_hello(crc32);
        FAIL() << "expected kiln::NoDevice";
    } catch (const kiln::NoDevice& e) {
        EXPECT_EQ(std::string(e.what()), "kiln: cannot call crc32: " + reason);
    }
}

TEST_F(LoaderTest, FileWithoutTheSymbolsIsAReasonThatNamesThem) {
    // libm is loaded already, so the loader names the file it is, not the link.
    link("libkilntest.so.3", system_path("libm.so.6"));
    setenv("KILN_VENDOR_LIBRARY_PATH", dir_.path().c_str(), 1);
    VendorLibrary library(search());
    const Symbol<Crc32> crc32{library, "crc32"};
    const Symbol<Crc32> adler32{library, "adler32"};
    const std::string reason = library.load();
    EXPECT_TRUE(contains(reason, system_path("libm.so.6") + " lacks ")) << reason;
    EXPECT_TRUE(contains(reason, "crc32")) << reason;
    EXPECT_TRUE(contains(reason, "adler32")) << reason;
    EXPECT_THROW((void)crc32_hello(adler32), kiln::NoDevice);
}

// Without KILN_VENDOR_LIBRARY_PATH: a root named by a variable first, then the system's search.
TEST_F(LoaderTest, RootVariableIsSearchedAndNamedInTheReason) {
    {
        VendorLibrary library(search("KILN_TEST_ROOT"));
        const std::string reason = library.load();
        EXPECT_TRUE(contains(reason, "the system's library search")) << reason;
        EXPECT_FALSE(contains(reason, "KILN_TEST_ROOT")) << "unset: not a place";
    }
    setenv("KILN_TEST_ROOT", dir_.path().c_str(), 1);
    {
        VendorLibrary library(search("KILN_TEST_ROOT"));
        const std::string reason = library.load();
        EXPECT_TRUE(contains(reason, (dir_.path() / "lib").string() + " (from KILN_TEST_ROOT)"))
            << reason;
    }
    const std::string libz = link("libkilntest.so.2", system_path("libz.so.1"), "lib");
    VendorLibrary library(search("KILN_TEST_ROOT"));
    const Symbol<Crc32> crc32{library, "crc32"};
    EXPECT_EQ(library.load(), "");
    EXPECT_TRUE(fs::equivalent(library.path(), libz)) << library.path();
    EXPECT_EQ(crc32_hello(crc32), crc32_of_hello);
}

}  // namespace
