// kiln::show_config: every section, with values checked against what the test set up (the cache
// directory and its files, the variables set) and what kiln's public API reports.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/cache_environment.hpp"
#include "tests/support/temporary_directory.hpp"

#include <kiln/backend.hpp>
#include <kiln/config.hpp>
#include <kiln/device.hpp>
#include <kiln/show_config.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

std::string report() {
    std::ostringstream out;
    kiln::show_config(out);
    return out.str();
}

void write_bytes(const fs::path& file, std::size_t bytes) {
    std::ofstream(file, std::ios::binary) << std::string(bytes, 'k');
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(ShowConfig, ReportsVersionBackendsAndDevices) {
    const std::string text = report();
    EXPECT_TRUE(text.starts_with(std::string("kiln ") + KILN_VERSION + "\n")) << text;
    EXPECT_TRUE(contains(text, "active backend: " + std::string(kiln::test::backend_name) + "\n"))
        << text;
    const int devices = kiln::device_count();
    if (kiln::test::is_host()) {
        EXPECT_EQ(devices, 2);  // tests/support/main.cpp sets KILN_HOST_DEVICES=2
        EXPECT_TRUE(contains(text, "backends compiled in: ")) << text;
        EXPECT_TRUE(contains(text, "    C++ compiler: /")) << text;
    }
    if (devices == 0) {
        EXPECT_TRUE(contains(text, " (active): not usable: " + kiln::no_device_reason())) << text;
        return;
    }
    EXPECT_TRUE(contains(text, std::string(kiln::test::backend_name) + " (active): usable, " +
                                   std::to_string(devices) + " device(s)\n"))
        << text;
    for (int device = 0; device < devices; ++device) {
        const auto properties = kiln::Device(device).properties();
        EXPECT_TRUE(contains(text, "    device " + std::to_string(device) + ": " + properties.name +
                                       ", arch " + properties.arch + ", "))
            << text;
    }
}

// The cache section: the directory KILN_CACHE_DIR names, its files' count and size in MiB, the
// part of them that are entries (named by a key) against KILN_CACHE_SIZE_LIMIT, and the memory
// level against its limit.
TEST(ShowConfig, ReportsTheCacheDirectoryItsSizeAndLimits) {
    const kiln::test::ScopedEnvironment environment;
    const kiln::test::TemporaryDirectory dir("kiln-show-config-");
    fs::create_directory(dir.path() / "ab");
    write_bytes(dir.path() / "ab" / "one.bin", 1024 * 1024);
    write_bytes(dir.path() / "ab" / ("ab" + std::string(62, '0') + ".bin"), 512 * 1024);
    write_bytes(dir.path() / "two.bin", 512 * 1024);
    setenv("KILN_CACHE_DIR", dir.path().c_str(), 1);  // NOLINT(concurrency-mt-unsafe)
    setenv("KILN_CACHE_SIZE_LIMIT", "3M", 1);         // NOLINT(concurrency-mt-unsafe)
    const std::string text = report();
    EXPECT_TRUE(contains(text, "compile cache: " + dir.path().string() +
                                   "\n  usable: yes\n  size: 3 files, 2.0 MiB\n"
                                   "  entries: 1 files, 0.5 MiB (limit 3.0 MiB, "
                                   "KILN_CACHE_SIZE_LIMIT)\n  in memory: "))
        << text;
    EXPECT_TRUE(contains(text, " MiB (limit 256.0 MiB, KILN_CACHE_MEMORY_LIMIT)\n")) << text;
    EXPECT_TRUE(contains(text, "\nenvironment:\n")) << text;
    EXPECT_TRUE(contains(text, "\n  KILN_CACHE_DIR=" + dir.path().string() + "\n")) << text;
    EXPECT_TRUE(contains(text, "\n  KILN_BACKEND=" + std::string(kiln::test::backend_name) + "\n"))
        << text;
}

TEST(ShowConfig, SaysWhyTheCacheCannotBeUsed) {
    const kiln::test::ScopedEnvironment environment;
    const kiln::test::TemporaryDirectory dir("kiln-show-config-");
    fs::permissions(dir.path(), fs::perms::all);
    setenv("KILN_CACHE_DIR", dir.path().c_str(), 1);  // NOLINT(concurrency-mt-unsafe)
    std::string text = report();
    EXPECT_TRUE(contains(text, "compile cache: " + dir.path().string() + "\n  not used: ")) << text;
    EXPECT_TRUE(contains(text, "mode 0777")) << text;

    setenv("KILN_CACHE_IN_MEMORY", "1", 1);  // NOLINT(concurrency-mt-unsafe)
    text = report();
    EXPECT_TRUE(contains(text, "compile cache: in memory only (KILN_CACHE_IN_MEMORY is set)\n"))
        << text;
}

}  // namespace
