#include "core/compile/compile_cache.hpp"
#include "core/compile/compile_key.hpp"
#include "core/compile/disk_cache.hpp"
#include "core/compile/sha256.hpp"
#include "tests/support/cache_environment.hpp"

#include <kiln/compile_cache.hpp>
#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
using kiln::detail::cache_format_version;
using kiln::detail::cache_header_size;
using kiln::detail::cache_key;
using kiln::detail::CacheEntry;
using kiln::detail::CacheKeyParts;
using kiln::detail::CompileCache;
using kiln::detail::DiskCache;
using kiln::detail::DiskLookup;
using kiln::test::ScopedEnvironment;

// A code object with every byte value, NULs included, and two name expressions.
CacheEntry sample_entry(std::size_t image_size = 1000) {
    CacheEntry entry;
    for (std::size_t i = 0; i < image_size; ++i) {
        entry.image.push_back(static_cast<char>((i * 7) % 256));
    }
    entry.lowered_names = {{"scale<float>", "_Z5scaleIfEvPT_S0_i"},
                           {"ns::fill<2>", std::string("_ZN2ns4fillILi2EEEvv\0x", 22)}};
    return entry;
}

std::string sample_key(std::string_view source = "extern \"C\" __global__ void k() {}") {
    static const std::vector<std::string> options = {"-std=c++17", "--use_fast_math"};
    return cache_key({"cuda", "nvrtc 13.0", "sm_90", options, source, "0.1.0"});
}

std::vector<char> read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::vector<char>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

unsigned mode_of(const fs::path& path) {
    struct stat status {};
    EXPECT_EQ(::stat(path.c_str(), &status), 0) << path;
    return status.st_mode & 0777U;
}

void append_integer(std::vector<char>& out, std::uint64_t value, int size) {
    for (int i = 0; i < size; ++i) {
        out.push_back(static_cast<char>(value & 0xffU));
        value >>= 8U;
    }
}

void append_run(std::vector<char>& out, std::string_view bytes) {
    append_integer(out, bytes.size(), 8);
    out.insert(out.end(), bytes.begin(), bytes.end());
}

// A cache file assembled by hand from the layout documented in disk_cache.hpp.
std::vector<char> assemble_file(std::uint32_t version, const std::vector<char>& payload) {
    std::vector<char> file = {'K', 'I', 'L', 'N', 'C', 'O', 'D', 'E'};
    append_integer(file, version, 4);
    append_integer(file, payload.size(), 8);
    for (const std::byte b : kiln::detail::sha256(std::as_bytes(std::span(payload)))) {
        file.push_back(static_cast<char>(b));
    }
    file.insert(file.end(), payload.begin(), payload.end());
    return file;
}

std::vector<char> payload_of(const std::string& key, const CacheEntry& entry) {
    std::vector<char> payload;
    append_run(payload, key);
    append_run(payload, std::string_view(entry.image.data(), entry.image.size()));
    append_integer(payload, entry.lowered_names.size(), 8);
    for (const auto& [expression, lowered] : entry.lowered_names) {
        append_run(payload, expression);
        append_run(payload, lowered);
    }
    return payload;
}

// Each test gets a fresh directory under the system's temporary directory, removed afterwards,
// and counters starting from zero.
class DiskCacheTest : public testing::Test {
protected:
    void SetUp() override {
        std::random_device random;
        root_ = fs::temp_directory_path() / ("kiln-disk-cache-test-" + std::to_string(::getpid()) +
                                             "-" + std::to_string(random()));
        fs::create_directories(root_);
    }
    void TearDown() override {
        // Tests take permissions away; give them back so that everything can be removed.
        std::error_code error;
        fs::permissions(root_, fs::perms::owner_all, fs::perm_options::add, error);
        for (auto it = fs::recursive_directory_iterator(root_, error);
             it != fs::recursive_directory_iterator(); it.increment(error)) {
            fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, error);
        }
        fs::remove_all(root_);
    }
    [[nodiscard]] const fs::path& root() const { return root_; }

private:
    fs::path root_;
};

TEST_F(DiskCacheTest, RoundTripKeepsBinaryBytesAndLoweredNames) {
    const DiskCache cache(root() / "cache");
    const auto key = sample_key();
    const auto entry = sample_entry();
    ASSERT_TRUE(cache.store(key, entry));
    EXPECT_TRUE(fs::is_regular_file(root() / "cache" / key.substr(0, 2) / (key + ".bin")));
    EXPECT_EQ(cache.entry_path(key), root() / "cache" / key.substr(0, 2) / (key + ".bin"));

    const auto loaded = cache.load(key).entry;
    ASSERT_TRUE(loaded.has_value());
    EXPECT_EQ(loaded->image, entry.image);
    EXPECT_EQ(loaded->lowered_names, entry.lowered_names);
    EXPECT_EQ(loaded->lowered_names[1].second.size(), 22U);  // the embedded NUL survived

    // A new cache object on the same directory (as a new process would make) finds it too.
    const DiskLookup again = DiskCache(root() / "cache").load(key);
    EXPECT_EQ(again.entry, entry);
    EXPECT_FALSE(again.corrupt);
}

TEST_F(DiskCacheTest, EmptyEntryRoundTrips) {
    const DiskCache cache(root());
    const auto key = sample_key();
    ASSERT_TRUE(cache.store(key, CacheEntry{}));
    EXPECT_EQ(cache.load(key).entry, CacheEntry{});
}

TEST_F(DiskCacheTest, FileFollowsTheDocumentedLayout) {
    const DiskCache cache(root());
    const auto key = sample_key();
    const auto entry = sample_entry(100);
    ASSERT_TRUE(cache.store(key, entry));
    const auto payload = payload_of(key, entry);
    const auto expected = assemble_file(cache_format_version, payload);
    EXPECT_EQ(expected.size(), cache_header_size + payload.size());
    EXPECT_EQ(read_bytes(cache.entry_path(key)), expected);

    // And a file written by hand to that layout loads.
    const auto other_key = sample_key("another source");
    fs::create_directories(cache.entry_path(other_key).parent_path());
    write_bytes(cache.entry_path(other_key),
                assemble_file(cache_format_version, payload_of(other_key, entry)));
    EXPECT_EQ(cache.load(other_key).entry, entry);
}

TEST_F(DiskCacheTest, AbsentEntryIsAMissNotACorruptFile) {
    const DiskCache cache(root() / "never-created");
    const DiskLookup lookup = cache.load(sample_key());
    EXPECT_FALSE(lookup.entry.has_value());
    EXPECT_FALSE(lookup.corrupt);
    EXPECT_FALSE(fs::exists(root() / "never-created"));  // looking creates nothing
}

TEST_F(DiskCacheTest, StoreReplacesAnEarlierEntry) {
    const DiskCache cache(root());
    const auto key = sample_key();
    ASSERT_TRUE(cache.store(key, sample_entry(10)));
    ASSERT_TRUE(cache.store(key, sample_entry(20)));
    EXPECT_EQ(cache.load(key).entry, sample_entry(20));
    // Only the entry is left, besides the lock evictions take: no temporary files.
    std::size_t files = 0;
    for (const auto& item : fs::recursive_directory_iterator(root())) {
        files += item.is_regular_file() && item.path() != root() / "lock" ? 1 : 0;
    }
    EXPECT_EQ(files, 1U);
}

TEST(CacheKey, IsTheSha256OfTheLengthPrefixedParts) {
    // Generated with Python's hashlib over the encoding cache_key documents:
    //   run = lambda b: struct.pack("<Q", len(b)) + b
    //   sha256(run(b"kiln compile cache key 1") + run(b"cuda") + run(b"nvrtc 13.0")
    //          + run(b"sm_90") + struct.pack("<Q", 2) + run(b"-std=c++17")
    //          + run(b"--use_fast_math") + run(source) + run(b"0.1.0")).hexdigest()
    EXPECT_EQ(sample_key(), "6320bcdc2a60bd8e06a625bb2d901c44385c37439e9fcc2e7868d24da7660db9");
}

TEST(CacheKey, EveryPartChangesTheKey) {
    const std::vector<std::string> options = {"-O3", "-DN=4"};
    const CacheKeyParts base{"cuda", "12.5", "sm_90", options, "source", "0.1.0"};
    const std::string key = cache_key(base);
    EXPECT_EQ(cache_key(base), key);

    auto changed = [&](auto change) {
        CacheKeyParts parts = base;
        change(parts);
        return cache_key(parts);
    };
    const std::vector<std::string> other_options = {"-O3", "-DN=5"};
    const std::vector<std::string> reordered = {"-DN=4", "-O3"};
    const std::vector<std::string> fewer = {"-O3"};
    const std::vector<std::string> keys = {
        key,
        changed([](CacheKeyParts& p) { p.backend = "hip"; }),
        changed([](CacheKeyParts& p) { p.compiler_version = "13.0"; }),
        changed([](CacheKeyParts& p) { p.target = "sm_80"; }),
        changed([&](CacheKeyParts& p) { p.options = other_options; }),
        changed([&](CacheKeyParts& p) { p.options = reordered; }),
        changed([&](CacheKeyParts& p) { p.options = fewer; }),
        changed([](CacheKeyParts& p) { p.source = "source "; }),
        changed([](CacheKeyParts& p) { p.kiln_version = "0.1.1"; }),
    };
    for (std::size_t i = 0; i < keys.size(); ++i) {
        EXPECT_EQ(keys[i].size(), 64U);
        for (std::size_t j = 0; j < i; ++j) {
            EXPECT_NE(keys[i], keys[j]) << "changes " << i << " and " << j << " collide";
        }
    }
}

TEST(CacheKey, PartBoundariesAreUnambiguous) {
    const std::vector<std::string> none;
    EXPECT_NE(cache_key({"ab", "c", "", none, "", ""}), cache_key({"a", "bc", "", none, "", ""}));
    EXPECT_NE(cache_key({"", "", "sm_9", none, "0", ""}),
              cache_key({"", "", "sm_", none, "90", ""}));

    const std::vector<std::string> two = {"a", "b"};
    const std::vector<std::string> joined = {"ab"};
    const std::vector<std::string> with_empty = {"a", "", "b"};
    EXPECT_NE(cache_key({"", "", "", two, "", ""}), cache_key({"", "", "", joined, "", ""}));
    EXPECT_NE(cache_key({"", "", "", two, "", ""}), cache_key({"", "", "", with_empty, "", ""}));
    // An option cannot slide into the source.
    const std::vector<std::string> option_x = {"x"};
    EXPECT_NE(cache_key({"", "", "", option_x, "y", ""}), cache_key({"", "", "", none, "xy", ""}));
}

TEST_F(DiskCacheTest, AnyChangedByteMakesTheFileAMiss) {
    const DiskCache cache(root());
    const auto key = sample_key();
    ASSERT_TRUE(cache.store(key, sample_entry(64)));
    const auto good = read_bytes(cache.entry_path(key));
    // Every byte: magic, version, size, checksum and payload.
    for (std::size_t i = 0; i < good.size(); ++i) {
        auto bad = good;
        bad[i] = static_cast<char>(bad[i] ^ 0x01);
        write_bytes(cache.entry_path(key), bad);
        const DiskLookup lookup = cache.load(key);
        EXPECT_FALSE(lookup.entry.has_value()) << "byte " << i << " changed";
        EXPECT_TRUE(lookup.corrupt) << "byte " << i << " changed";
    }

    // The next store replaces the damaged file.
    ASSERT_TRUE(cache.store(key, sample_entry(64)));
    EXPECT_EQ(cache.load(key).entry, sample_entry(64));
}

TEST_F(DiskCacheTest, TruncatedOrExtendedFileIsAMiss) {
    const DiskCache cache(root());
    const auto key = sample_key();
    ASSERT_TRUE(cache.store(key, sample_entry(64)));
    const auto good = read_bytes(cache.entry_path(key));
    for (std::size_t size = 0; size < good.size(); ++size) {
        write_bytes(cache.entry_path(key), {good.begin(), good.begin() + static_cast<long>(size)});
        const DiskLookup lookup = cache.load(key);
        EXPECT_FALSE(lookup.entry.has_value()) << "truncated to " << size << " bytes";
        EXPECT_TRUE(lookup.corrupt) << "truncated to " << size << " bytes";
    }
    auto longer = good;
    longer.push_back('\0');
    write_bytes(cache.entry_path(key), longer);
    const DiskLookup lookup = cache.load(key);
    EXPECT_FALSE(lookup.entry.has_value());
    EXPECT_TRUE(lookup.corrupt);
}

TEST_F(DiskCacheTest, OtherFormatVersionIsAMiss) {
    const DiskCache cache(root());
    const auto key = sample_key();
    const auto entry = sample_entry();
    fs::create_directories(cache.entry_path(key).parent_path());
    // Intact payload and checksum; only the version differs.
    for (const std::uint32_t version : {cache_format_version + 1, 0U}) {
        write_bytes(cache.entry_path(key), assemble_file(version, payload_of(key, entry)));
        const DiskLookup lookup = cache.load(key);
        EXPECT_FALSE(lookup.entry.has_value()) << "version " << version;
        EXPECT_TRUE(lookup.corrupt) << "version " << version;
    }
}

TEST_F(DiskCacheTest, MalformedPayloadWithAValidChecksumIsAMiss) {
    const DiskCache cache(root());
    const auto key = sample_key();
    fs::create_directories(cache.entry_path(key).parent_path());
    auto load_payload = [&](const std::vector<char>& payload) {
        write_bytes(cache.entry_path(key), assemble_file(cache_format_version, payload));
        return cache.load(key);
    };
    const auto good = payload_of(key, sample_entry(8));
    ASSERT_EQ(load_payload(good).entry, sample_entry(8));

    std::vector<char> huge_image;  // claims 2^63 bytes of image
    append_run(huge_image, key);
    append_integer(huge_image, std::uint64_t{1} << 63U, 8);
    EXPECT_TRUE(load_payload(huge_image).corrupt);

    std::vector<char> many_names;  // claims 2^40 names, holds none
    append_run(many_names, key);
    append_run(many_names, "image");
    append_integer(many_names, std::uint64_t{1} << 40U, 8);
    EXPECT_TRUE(load_payload(many_names).corrupt);

    auto trailing = good;
    trailing.push_back('x');
    EXPECT_TRUE(load_payload(trailing).corrupt);
    EXPECT_TRUE(load_payload({}).corrupt);

    // A whole, valid file stored under another entry's name (copied or renamed by hand).
    EXPECT_TRUE(load_payload(payload_of(sample_key("other"), sample_entry(8))).corrupt);
}

TEST_F(DiskCacheTest, CreatesPrivateDirectories) {
    const mode_t previous = ::umask(022);
    const DiskCache cache(root() / "a" / "b" / "cache");
    const auto key = sample_key();
    EXPECT_TRUE(cache.store(key, sample_entry()));
    ::umask(previous);
    for (const auto& dir : {root() / "a", root() / "a" / "b", root() / "a" / "b" / "cache",
                            cache.entry_path(key).parent_path()}) {
        EXPECT_EQ(mode_of(dir), 0700U) << dir;
    }
    EXPECT_EQ(mode_of(root()), 0755U & ~022U) << "an existing parent keeps its mode";
}

TEST_F(DiskCacheTest, UnwritableDirectoryFailsTheStoreQuietly) {
    if (::geteuid() == 0) {
        GTEST_SKIP() << "running as root, which bypasses permissions: a directory with mode 0500 "
                        "stays writable, so the failure cannot be provoked this way";
    }
    const DiskCache cache(root() / "cache");
    const auto key = sample_key();
    fs::create_directories(root() / "cache");
    fs::permissions(root() / "cache", static_cast<fs::perms>(0500));
    bool stored = true;
    EXPECT_NO_THROW(stored = cache.store(key, sample_entry()));
    EXPECT_FALSE(stored);

    // The subdirectory exists but is read-only: the temporary file cannot be made.
    fs::permissions(root() / "cache", fs::perms::owner_all);
    fs::create_directories(cache.entry_path(key).parent_path());
    fs::permissions(cache.entry_path(key).parent_path(), static_cast<fs::perms>(0500));
    EXPECT_NO_THROW(stored = cache.store(key, sample_entry()));
    EXPECT_FALSE(stored);
    EXPECT_FALSE(cache.load(key).entry.has_value());
}

TEST_F(DiskCacheTest, UnreadableDirectoryIsAMiss) {
    if (::geteuid() == 0) {
        GTEST_SKIP() << "running as root, which bypasses permissions: a directory with mode 0000 "
                        "stays readable, so the failure cannot be provoked this way";
    }
    const DiskCache cache(root());
    const auto key = sample_key();
    ASSERT_TRUE(cache.store(key, sample_entry()));
    fs::permissions(cache.entry_path(key).parent_path(), fs::perms::none);
    DiskLookup lookup;
    EXPECT_NO_THROW(lookup = cache.load(key));
    EXPECT_FALSE(lookup.entry.has_value());
    EXPECT_FALSE(lookup.corrupt);
}

// Provokes the same failures in a way permissions do not govern, so it runs as root too.
TEST_F(DiskCacheTest, PathsInTheWayFailQuietly) {
    write_bytes(root() / "file", {'x'});
    const DiskCache under_a_file(root() / "file" / "cache");
    const auto key = sample_key();
    bool stored = true;
    EXPECT_NO_THROW(stored = under_a_file.store(key, sample_entry()));
    EXPECT_FALSE(stored);
    EXPECT_FALSE(under_a_file.load(key).entry.has_value());

    // A directory where the entry's file should be: the rename fails, and reading finds no file.
    const DiskCache cache(root() / "cache");
    fs::create_directories(cache.entry_path(key));
    EXPECT_NO_THROW(stored = cache.store(key, sample_entry()));
    EXPECT_FALSE(stored);
    EXPECT_FALSE(cache.load(key).entry.has_value());
    EXPECT_EQ(std::distance(fs::directory_iterator(cache.entry_path(key).parent_path()),
                            fs::directory_iterator()),
              1)
        << "the temporary file was left behind";

    // A FIFO where the entry's file should be: reading must not wait for a writer.
    fs::remove(cache.entry_path(key));
    ASSERT_EQ(::mkfifo(cache.entry_path(key).c_str(), 0600), 0);
    const DiskLookup lookup = cache.load(key);
    EXPECT_FALSE(lookup.entry.has_value());
    EXPECT_FALSE(lookup.corrupt);
}

TEST_F(DiskCacheTest, BadKeyIsAnError) {
    const DiskCache cache(root());
    const std::string too_short(63, 'a');
    const std::string upper_case(64, 'A');
    const std::string escaping = "../../" + std::string(58, 'a');
    for (const std::string& key : {too_short, upper_case, escaping, std::string()}) {
        for (int call = 0; call < 3; ++call) {
            try {
                if (call == 0) {
                    (void)cache.load(key);
                } else if (call == 1) {
                    (void)cache.store(key, sample_entry());
                } else {
                    (void)cache.entry_path(key);
                }
                ADD_FAILURE() << "accepted key '" << key << "'";
            } catch (const kiln::Error& e) {
                const std::string what = e.what();
                EXPECT_NE(what.find("kiln: DiskCache: key '" + key + "'"), std::string::npos)
                    << what;
                EXPECT_NE(what.find("expected 64 lower-case hex digits"), std::string::npos)
                    << what;
            }
        }
    }
    EXPECT_TRUE(fs::is_empty(root()));
}

// Stores and loads the same key `rounds` times; returns how many stores failed plus how many
// loads gave anything but `entry`. Once stored, the file is only ever replaced whole, so even
// "nothing" (a torn file read as corrupt) would be a failure here.
int store_and_load(const DiskCache& cache, const std::string& key, const CacheEntry& entry,
                   int rounds) {
    int failures = 0;
    for (int i = 0; i < rounds; ++i) {
        failures += cache.store(key, entry) ? 0 : 1;
        const auto loaded = cache.load(key).entry;
        failures += loaded == entry ? 0 : 1;
    }
    return failures;
}

TEST_F(DiskCacheTest, TwoProcessesStoringTheSameKeyNeverTearAFile) {
    const DiskCache cache(root() / "shared");
    const auto key = sample_key();
    const auto entry = sample_entry(std::size_t{256} * 1024);  // large enough for writes to overlap
    const pid_t child = ::fork();
    ASSERT_GE(child, 0) << "fork failed";
    if (child == 0) {
        int failures = 1;
        try {
            failures = store_and_load(cache, key, entry, 200);
        } catch (...) {
            failures = 1;
        }
        ::_exit(failures == 0 ? 0 : 1);
    }
    const int failures = store_and_load(cache, key, entry, 200);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_EQ(failures, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "the child saw a failed store or a wrong entry";
    EXPECT_EQ(cache.load(key).entry, entry);
    EXPECT_EQ(std::distance(fs::directory_iterator(cache.entry_path(key).parent_path()),
                            fs::directory_iterator()),
              1)
        << "temporary files were left behind";
}

TEST_F(DiskCacheTest, ThreadsStoringTheSameKeyNeverTearAFile) {
    const DiskCache cache(root());
    const auto key = sample_key();
    const auto entry = sample_entry(std::size_t{64} * 1024);
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    threads.reserve(4);
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&] { failures += store_and_load(cache, key, entry, 50); });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    EXPECT_EQ(failures.load(), 0);
}

TEST(CompileCacheEnvironment, DirectoryComesFromTheFirstVariableSet) {
    const ScopedEnvironment environment;
    EXPECT_EQ(kiln::compile_cache_directory(), std::nullopt) << "no variable names a home";
    setenv("HOME", "/home/someone", 1);
    EXPECT_EQ(kiln::compile_cache_directory(), fs::path("/home/someone/.cache/kiln"));
    setenv("XDG_CACHE_HOME", "relative/cache", 1);
    EXPECT_EQ(kiln::compile_cache_directory(), fs::path("/home/someone/.cache/kiln"))
        << "a relative XDG_CACHE_HOME is ignored, as the XDG specification says";
    setenv("XDG_CACHE_HOME", "/var/cache/someone", 1);
    EXPECT_EQ(kiln::compile_cache_directory(), fs::path("/var/cache/someone/kiln"));
    setenv("KILN_CACHE_DIR", "/scratch/kiln-cache", 1);
    EXPECT_EQ(kiln::compile_cache_directory(), fs::path("/scratch/kiln-cache"));
    setenv("KILN_CACHE_DIR", "", 1);
    EXPECT_EQ(kiln::compile_cache_directory(), fs::path("/var/cache/someone/kiln"))
        << "an empty variable counts as unset";
    EXPECT_FALSE(fs::exists("/scratch/kiln-cache"));
}

TEST(CompileCacheEnvironment, InMemoryTurnsTheDiskLevelOff) {
    const ScopedEnvironment environment;
    setenv("KILN_CACHE_DIR", "/scratch/kiln-cache", 1);
    setenv("KILN_CACHE_IN_MEMORY", "", 1);
    EXPECT_TRUE(DiskCache::from_environment().has_value());
    setenv("KILN_CACHE_IN_MEMORY", "1", 1);
    EXPECT_FALSE(DiskCache::from_environment().has_value());
    EXPECT_EQ(kiln::compile_cache_directory(), std::nullopt);
}

TEST_F(DiskCacheTest, SaveSourceWritesTheSourceBesideTheBinary) {
    const ScopedEnvironment environment;
    setenv("KILN_CACHE_DIR", root().c_str(), 1);
    const std::string source = "extern \"C\" __global__ void k(float* x) { x[0] = 1; }\n";
    const auto key = sample_key(source);
    const auto source_path = root() / key.substr(0, 2) / (key + ".cu");

    auto quiet = DiskCache::from_environment();
    ASSERT_TRUE(quiet.has_value());
    EXPECT_EQ(quiet->directory(), root());
    EXPECT_FALSE(quiet->saves_source());
    ASSERT_TRUE(quiet->store(key, sample_entry(), source));
    EXPECT_FALSE(fs::exists(source_path));

    setenv("KILN_CACHE_SAVE_SOURCE", "1", 1);
    auto saving = DiskCache::from_environment();
    ASSERT_TRUE(saving.has_value());
    EXPECT_TRUE(saving->saves_source());
    ASSERT_TRUE(saving->store(key, sample_entry(), source));
    const auto saved = read_bytes(source_path);
    EXPECT_EQ(std::string(saved.begin(), saved.end()), source);
    EXPECT_EQ(saving->load(key).entry, sample_entry());
    EXPECT_EQ(mode_of(root() / key.substr(0, 2)), 0700U);
}

// A request the compile cache can serve from disk without a compiler: its key names a stored
// entry.
kiln::detail::CompileRequest stored_request(std::string_view source) {
    kiln::detail::CompileRequest request;
    request.source = source;
    request.kernel = "k";
    request.target = "sm_90";
    request.key = sample_key(source);
    return request;
}

TEST_F(DiskCacheTest, CompileCacheCountsMemoryAndDiskHitsAndResets) {
    const DiskCache disk(root());
    const auto request = stored_request("counted");
    ASSERT_TRUE(disk.store(request.key, sample_entry(16)));
    CompileCache cache(disk);
    EXPECT_EQ(cache.get(request).image, sample_entry(16).image);  // from disk
    EXPECT_EQ(cache.get(request).image, sample_entry(16).image);  // from memory
    auto stats = cache.statistics();
    EXPECT_EQ(stats.disk_hits, 1U);
    EXPECT_EQ(stats.memory_hits, 1U);
    EXPECT_EQ(stats.disk_misses, 0U);
    EXPECT_EQ(stats.compiles, 0U);
    cache.reset_statistics();
    stats = cache.statistics();
    EXPECT_EQ(stats.memory_hits, 0U);
    EXPECT_EQ(stats.disk_hits, 0U);
    EXPECT_EQ(stats.disk_misses, 0U);
    EXPECT_EQ(stats.corrupt_files, 0U);
    EXPECT_EQ(stats.compiles, 0U);
    EXPECT_EQ(stats.compile_seconds, 0.0);
}

TEST_F(DiskCacheTest, CompileCacheConcurrentCountsAreAllKept) {
    const DiskCache disk(root());
    const auto request = stored_request("shared");
    ASSERT_TRUE(disk.store(request.key, sample_entry(16)));
    CompileCache cache(disk);
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    threads.reserve(8);
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 2000; ++i) {
                wrong += cache.get(request).image == sample_entry(16).image ? 0 : 1;
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    EXPECT_EQ(wrong.load(), 0);
    const auto stats = cache.statistics();
    // Threads that miss memory at once each read the disk; every call is counted once.
    EXPECT_GE(stats.disk_hits, 1U);
    EXPECT_EQ(stats.memory_hits + stats.disk_hits, 16000U);
}

}  // namespace
