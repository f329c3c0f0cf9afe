// The compile cache's disk level: code objects kept as files named by the hash of everything that
// shaped them, so a later process skips the compiler. Several processes may share a directory:
// files are written aside and renamed into place, and every file is verified before use. Problems
// with the directory or its files are misses, never errors of the kernel call that looked.
#pragma once

#include "disk_eviction.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln::detail {

// What a later process needs from a compile: the code object, and the lowered (mangled) name of
// each name expression the caller asked the compiler about.
struct CacheEntry {
    std::vector<char> image;
    std::vector<std::pair<std::string, std::string>> lowered_names;

    bool operator==(const CacheEntry&) const = default;
};

// A cache file (integers little-endian):
//   8 bytes   magic "KILNCODE"
//   4 bytes   format version
//   8 bytes   payload size
//   32 bytes  SHA-256 of the payload
//   payload   the key, the image, the number of lowered names, then each expression and its
//             lowered name; every string or byte run is preceded by its 8-byte length.
inline constexpr std::uint32_t cache_format_version = 1;
inline constexpr std::size_t cache_header_size = 52;

// What a load found: the entry, or nothing; `corrupt` when a file was there but failed
// verification.
struct DiskLookup {
    std::optional<CacheEntry> entry;
    bool corrupt = false;
};

class DiskCache {
public:
    // A cache in `directory`, created (mode 0700, parents as needed) by the first store. With
    // `save_source`, store also writes the source beside the binary, for debugging. Entries past
    // `size_limit` bytes are evicted after each store; 0 means no limit.
    explicit DiskCache(std::filesystem::path directory, bool save_source = false,
                       std::uint64_t size_limit = default_disk_cache_limit);

    // The cache the environment asks for: KILN_CACHE_DIR, else $XDG_CACHE_HOME/kiln (absolute
    // paths only, as the XDG specification says), else $HOME/.cache/kiln; KILN_CACHE_SAVE_SOURCE
    // turns on save_source; KILN_CACHE_SIZE_LIMIT sets size_limit (env::parse_byte_size; throws
    // Error naming it when malformed). Nothing when KILN_CACHE_IN_MEMORY is set or no variable
    // names a home.
    [[nodiscard]] static std::optional<DiskCache> from_environment();

    // The same when its directory may be trusted (cache_trust.hpp); else nothing, and a warning,
    // once, naming the directory and why. Warns too (once) when the directory is not writable.
    [[nodiscard]] static std::optional<DiskCache> trusted_from_environment();

    [[nodiscard]] const std::filesystem::path& directory() const noexcept { return directory_; }
    [[nodiscard]] bool saves_source() const noexcept { return save_source_; }
    [[nodiscard]] std::uint64_t size_limit() const noexcept { return size_limit_; }

    // <directory>/<first two digits of key>/<key>.bin; the source goes beside it as <key>.cu.
    // Throws Error when `key` is not 64 lower-case hex digits (not a compile key).
    [[nodiscard]] std::filesystem::path entry_path(const std::string& key) const;

    // <directory>/trees/<key>: a tree entry's place (cache_tree.hpp). Throws as entry_path.
    [[nodiscard]] std::filesystem::path tree_path(const std::string& key) const;

    // The stored entry, or nothing when there is none, the file cannot be read, is not this
    // user's or others may write to it, or it fails verification. Throws only for a bad key.
    [[nodiscard]] DiskLookup load(const std::string& key) const;

    // Writes the entry (and, with save_source and a non-empty source, the source); false when any
    // of it could not be written, and then warns, once per directory, saying why. Readers see the
    // old file or the whole new one, never a part. Then evicts past the size limit. Throws only
    // for a bad key.
    [[nodiscard]] bool store(const std::string& key, const CacheEntry& entry,
                             std::string_view source_for_debugging = {}) const;

    // Renames the directory `built` (made in tree_folder(directory()), so the rename stays on one
    // filesystem) to tree_path(key), counts it and evicts past the size limit. False when it
    // could not be renamed: another process put its tree there first, or the directory is not
    // usable. A tree leased while built is not evicted by this store's own pass. Throws only for
    // a bad key.
    [[nodiscard]] bool adopt_tree(const std::string& key, const std::filesystem::path& built) const;

private:
    std::filesystem::path directory_;
    bool save_source_;
    std::uint64_t size_limit_;
};

}  // namespace kiln::detail
