#include "disk_cache.hpp"

#include "../env.hpp"
#include "../warning.hpp"
#include "byte_encoding.hpp"
#include "cache_tree.hpp"
#include "cache_trust.hpp"
#include "sha256.hpp"

#include <kiln/error.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <functional>
#include <random>
#include <sstream>
#include <system_error>
#include <thread>
#include <utility>

namespace kiln::detail {

namespace {

constexpr std::array<char, 8> file_magic = {'K', 'I', 'L', 'N', 'C', 'O', 'D', 'E'};
// Far above any real code object; a larger file is damaged, and is not read into memory.
constexpr std::uint64_t max_file_size = std::uint64_t{1} << 32U;

// Reads the payload's fields in order; every read is bounds-checked, since a file's content is
// untrusted even when its checksum matches.
class Reader {
public:
    explicit Reader(std::span<const std::byte> bytes) : rest_(bytes) {}

    bool integer(std::uint64_t& value, int size) {
        if (rest_.size() < static_cast<std::size_t>(size)) {
            return false;
        }
        value = 0;
        for (int i = size - 1; i >= 0; --i) {
            value =
                (value << 8U) | std::to_integer<std::uint64_t>(rest_[static_cast<std::size_t>(i)]);
        }
        rest_ = rest_.subspan(static_cast<std::size_t>(size));
        return true;
    }

    bool run(std::span<const std::byte>& bytes) {
        std::uint64_t size = 0;
        if (!integer(size, 8) || size > rest_.size()) {
            return false;
        }
        bytes = rest_.first(size);
        rest_ = rest_.subspan(size);
        return true;
    }

    bool text(std::string& value) {
        std::span<const std::byte> bytes;
        if (!run(bytes)) {
            return false;
        }
        value.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        return true;
    }

    [[nodiscard]] bool at_end() const noexcept { return rest_.empty(); }

private:
    std::span<const std::byte> rest_;
};

Bytes encode_file(const std::string& key, const CacheEntry& entry) {
    Bytes payload;
    append_run(payload, key);
    append_run(payload, std::as_bytes(std::span(entry.image)));
    append_integer(payload, entry.lowered_names.size(), 8);
    for (const auto& [expression, lowered] : entry.lowered_names) {
        append_run(payload, expression);
        append_run(payload, lowered);
    }
    const auto checksum = sha256(payload);

    Bytes file;
    file.reserve(cache_header_size + payload.size());
    for (const char c : file_magic) {
        file.push_back(static_cast<std::byte>(c));
    }
    append_integer(file, cache_format_version, 4);
    append_integer(file, payload.size(), 8);
    file.insert(file.end(), checksum.begin(), checksum.end());
    file.insert(file.end(), payload.begin(), payload.end());
    return file;
}

// The entry in a whole cache file, or nothing when any check fails.
std::optional<CacheEntry> decode_file(std::span<const std::byte> file, const std::string& key) {
    if (file.size() < cache_header_size ||
        !std::equal(file_magic.begin(), file_magic.end(), file.begin(),
                    [](char c, std::byte b) { return static_cast<std::byte>(c) == b; })) {
        return std::nullopt;
    }
    Reader header(file.subspan(file_magic.size(), cache_header_size - file_magic.size()));
    std::uint64_t version = 0;
    std::uint64_t payload_size = 0;
    (void)header.integer(version, 4);
    (void)header.integer(payload_size, 8);
    if (version != cache_format_version || payload_size != file.size() - cache_header_size) {
        return std::nullopt;
    }
    const auto payload = file.subspan(cache_header_size);
    const auto digest = sha256(payload);
    if (!std::equal(digest.begin(), digest.end(),
                    file.begin() + cache_header_size - digest.size())) {
        return std::nullopt;
    }

    Reader reader(payload);
    std::string stored_key;
    std::span<const std::byte> image;
    std::uint64_t count = 0;
    // The key guards against a file copied or renamed to another entry's name.
    if (!reader.text(stored_key) || stored_key != key || !reader.run(image) ||
        !reader.integer(count, 8)) {
        return std::nullopt;
    }
    CacheEntry entry;
    const auto* image_chars = reinterpret_cast<const char*>(image.data());
    entry.image.assign(image_chars, image_chars + image.size());
    for (std::uint64_t i = 0; i < count; ++i) {
        auto& [expression, lowered] = entry.lowered_names.emplace_back();
        if (!reader.text(expression) || !reader.text(lowered)) {
            return std::nullopt;
        }
    }
    if (!reader.at_end()) {
        return std::nullopt;
    }
    return entry;
}

// An open file descriptor, closed when it goes out of scope.
class FileDescriptor {
public:
    explicit FileDescriptor(int fd) noexcept : fd_(fd) {}
    ~FileDescriptor() {
        if (fd_ >= 0) {
            (void)::close(fd_);
        }
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    FileDescriptor(FileDescriptor&&) = delete;
    FileDescriptor& operator=(FileDescriptor&&) = delete;

    [[nodiscard]] int get() const noexcept { return fd_; }
    [[nodiscard]] bool valid() const noexcept { return fd_ >= 0; }
    // Closes now and says whether the close succeeded: a failed close can mean lost writes.
    bool close() noexcept {
        const int fd = std::exchange(fd_, -1);
        return ::close(fd) == 0;
    }

private:
    int fd_;
};

enum class FileState { read, absent, unreadable, untrusted, damaged };

// Reads the whole file. `damaged` means its size alone rules it out as a cache file; `untrusted`
// that it is another user's, or others may write to it (judged on the open file, so a file
// swapped in after the check is never the one read).
FileState read_file(const std::filesystem::path& path, Bytes& content) {
    // O_NONBLOCK: a FIFO in the entry's place must not hang the open; regular files ignore it.
    FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (!file.valid()) {
        return errno == ENOENT ? FileState::absent : FileState::unreadable;
    }
    struct stat status {};
    if (::fstat(file.get(), &status) != 0 || !S_ISREG(status.st_mode)) {
        return FileState::unreadable;
    }
    if (untrusted_file(status)) {
        return FileState::untrusted;
    }
    const auto size = static_cast<std::uint64_t>(status.st_size);
    if (size < cache_header_size || size > max_file_size) {
        return FileState::damaged;
    }
    content.resize(size);
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t got = ::read(file.get(), content.data() + done, content.size() - done);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            return FileState::unreadable;
        }
        if (got == 0) {
            return FileState::damaged;
        }
        done += static_cast<std::size_t>(got);
    }
    return FileState::read;
}

bool write_all(int fd, std::span<const std::byte> bytes) {
    while (!bytes.empty()) {
        const ssize_t put = ::write(fd, bytes.data(), bytes.size());
        if (put < 0 && errno == EINTR) {
            continue;
        }
        if (put <= 0) {
            return false;
        }
        bytes = bytes.subspan(static_cast<std::size_t>(put));
    }
    return true;
}

// A name no other writer uses now: the process id tells processes apart (also a forked child,
// whose random generator starts as a copy of its parent's), the thread id tells threads apart,
// and the random part tells apart a process that reuses the id of one that died mid-write.
std::string temporary_name(const std::filesystem::path& target) {
    thread_local std::mt19937_64 generator(
        std::random_device{}() ^
        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
    const auto thread = std::hash<std::thread::id>{}(std::this_thread::get_id());
    std::ostringstream name;
    name << '.' << target.filename().string() << ".tmp." << ::getpid() << '.' << thread << '.'
         << generator();
    return name.str();
}

// Why a store failed, for the warning; nothing when it did not.
using Failure = std::optional<std::string>;

Failure failed(const char* what, const std::filesystem::path& path, int error) {
    return std::string(what) + " '" + path.string() +
           "': " + std::generic_category().message(error);
}

// The bytes of the regular file at `path`, 0 when there is none.
std::int64_t regular_file_size(const std::filesystem::path& path) {
    struct stat status {};
    return ::lstat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode) ? status.st_size : 0;
}

// Writes `bytes` to a new file beside `target`, then renames it over `target` (under the cache's
// lock, through place_entry, which counts the bytes): rename replaces the name atomically, so a
// reader opens either the previous file or the complete new one, and a writer killed midway
// leaves only its temporary file, which eviction removes once it is stale.
Failure write_atomically(const std::filesystem::path& directory, std::uint64_t limit,
                         const std::filesystem::path& target, std::span<const std::byte> bytes) {
    const auto temporary = target.parent_path() / temporary_name(target);
    FileDescriptor file(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
    if (!file.valid()) {
        return failed("cannot create", temporary, errno);
    }
    Failure failure;
    if (!write_all(file.get(), bytes) || !file.close()) {
        failure = failed("cannot write", temporary, errno);
    } else {
        const bool placed = place_entry(directory, limit, [&]() -> std::optional<std::int64_t> {
            const auto replaced = regular_file_size(target);
            if (::rename(temporary.c_str(), target.c_str()) != 0) {
                failure = failed("cannot rename a file to", target, errno);
                return std::nullopt;
            }
            return static_cast<std::int64_t>(bytes.size()) - replaced;
        });
        if (!placed && !failure) {
            failure = "cannot place '" + target.string() + "'";
        }
    }
    if (failure) {
        (void)::unlink(temporary.c_str());
    }
    return failure;
}

// Creates `directory` and its missing parents with mode 0700.
Failure make_private_directories(const std::filesystem::path& directory) {
    std::error_code error;
    if (std::filesystem::is_directory(directory, error)) {
        return std::nullopt;
    }
    const auto parent = directory.parent_path();
    if (parent != directory && !parent.empty()) {
        if (auto failure = make_private_directories(parent)) {
            return failure;
        }
    }
    // EEXIST: another process made it first, or it is a file (caught by the check below).
    if (::mkdir(directory.c_str(), 0700) != 0 && errno != EEXIST) {
        return failed("cannot create the directory", directory, errno);
    }
    if (!std::filesystem::is_directory(directory, error)) {
        return failed("cannot create the directory", directory, ENOTDIR);
    }
    return std::nullopt;
}

bool is_cache_key(std::string_view key) {
    return key.size() == 2 * sha256_size && std::all_of(key.begin(), key.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

std::optional<std::filesystem::path> directory_from_environment() {
    if (auto dir = env::get("KILN_CACHE_DIR")) {
        return std::filesystem::path(*dir);
    }
    if (auto xdg = env::get("XDG_CACHE_HOME"); xdg && std::filesystem::path(*xdg).is_absolute()) {
        return std::filesystem::path(*xdg) / "kiln";
    }
    if (auto home = env::get("HOME")) {
        return std::filesystem::path(*home) / ".cache" / "kiln";
    }
    return std::nullopt;
}

// Said once per directory: every run compiling everything again is otherwise a mystery.
void warn_unwritable(const std::filesystem::path& directory, const std::string& reason) {
    warn_once("cache-write " + directory.string(),
              "cannot write the compile cache in '" + directory.string() + "': " + reason +
                  "; kernels compiled now are compiled again by the next run");
}

}  // namespace

DiskCache::DiskCache(std::filesystem::path directory, bool save_source, std::uint64_t size_limit)
    : directory_(std::move(directory)), save_source_(save_source), size_limit_(size_limit) {}

std::optional<DiskCache> DiskCache::from_environment() {
    if (env::get("KILN_CACHE_IN_MEMORY")) {
        return std::nullopt;
    }
    auto directory = directory_from_environment();
    if (!directory) {
        return std::nullopt;
    }
    const auto limit = env::get("KILN_CACHE_SIZE_LIMIT");
    return DiskCache(
        std::move(*directory), env::get("KILN_CACHE_SAVE_SOURCE").has_value(),
        limit ? env::parse_byte_size("KILN_CACHE_SIZE_LIMIT", *limit) : default_disk_cache_limit);
}

std::optional<DiskCache> DiskCache::trusted_from_environment() {
    auto cache = from_environment();
    if (!cache) {
        return std::nullopt;
    }
    const auto& directory = cache->directory();
    if (auto reason = untrusted_directory(directory)) {
        warn_once("cache-trust " + directory.string(), "not using the compile cache directory '" +
                                                           directory.string() + "': " + *reason +
                                                           "; kernels are cached in memory only");
        return std::nullopt;
    }
    // Readable but not writable: entries found are used, but the warning comes now, not after
    // the first compile.
    std::error_code error;
    if (std::filesystem::is_directory(directory, error) &&
        ::access(directory.c_str(), W_OK | X_OK) != 0) {
        warn_unwritable(directory, std::generic_category().message(errno));
    }
    return cache;
}

std::filesystem::path DiskCache::entry_path(const std::string& key) const {
    if (!is_cache_key(key)) {
        throw Error("kiln: DiskCache: key '" + key +
                    "' is not a cache key: expected 64 lower-case hex digits, a compile key");
    }
    return directory_ / key.substr(0, 2) / (key + ".bin");
}

std::filesystem::path DiskCache::tree_path(const std::string& key) const {
    (void)entry_path(key);  // checks the key
    return tree_folder(directory_) / key;
}

bool DiskCache::adopt_tree(const std::string& key, const std::filesystem::path& built) const {
    const auto place = tree_path(key);
    try {
        return place_entry(directory_, size_limit_, [&]() -> std::optional<std::int64_t> {
            // rename refuses to replace a non-empty directory: a tree already there stays.
            if (::rename(built.c_str(), place.c_str()) != 0) {
                return std::nullopt;
            }
            return static_cast<std::int64_t>(tree_size(place));
        });
    } catch (const std::exception&) {
        return false;
    }
}

DiskLookup DiskCache::load(const std::string& key) const {
    const auto path = entry_path(key);
    DiskLookup lookup;
    try {
        Bytes content;
        switch (read_file(path, content)) {
            case FileState::read:
                lookup.entry = decode_file(content, key);
                lookup.corrupt = !lookup.entry;
                if (lookup.entry) {
                    mark_used(path);
                }
                break;
            case FileState::damaged:
                lookup.corrupt = true;
                break;
            case FileState::absent:
            case FileState::unreadable:
            case FileState::untrusted:
                break;
        }
    } catch (const std::exception&) {
        // Out of memory or a filesystem library failure: a miss like any other.
        lookup.entry.reset();
    }
    return lookup;
}

bool DiskCache::store(const std::string& key, const CacheEntry& entry,
                      std::string_view source_for_debugging) const {
    auto path = entry_path(key);
    Failure failure;
    try {
        failure = make_private_directories(path.parent_path());
        if (!failure) {
            failure = write_atomically(directory_, size_limit_, path, encode_file(key, entry));
        }
        if (!failure && save_source_ && !source_for_debugging.empty()) {
            failure = write_atomically(directory_, size_limit_, path.replace_extension(".cu"),
                                       std::as_bytes(std::span(source_for_debugging)));
        }
    } catch (const std::exception& e) {
        // Out of memory or a filesystem library failure: the entry is simply not stored.
        failure = e.what();
    }
    if (failure) {
        warn_unwritable(directory_, *failure);
    }
    return !failure;
}

}  // namespace kiln::detail
