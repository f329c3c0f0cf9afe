#include "prelude_cache.hpp"

#include "../../core/compile/cache_trust.hpp"
#include "../../core/compile/disk_cache.hpp"
#include "../../core/compile/sha256.hpp"
#include "../../core/log.hpp"
#include "../../core/warning.hpp"
#include "prelude_manifest.hpp"
#include "process.hpp"
#include "scratch_directory.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <utility>

namespace kiln::detail::host {

namespace {

namespace fs = std::filesystem;

// The tree's key: a SHA-256 of everything the precompiled prelude depends on.
std::string prelude_key(const HostCompiler& compiler, const std::vector<std::string>& options,
                        std::span<const DeviceHeader> headers) {
    std::string identity = "kiln host prelude 4\n" + compiler.path + "\n" + compiler.version + "\n";
    for (const auto& option : options) {
        identity.append(option).append("\n");
    }
    for (const auto& header : headers) {
        identity.append(header.name).append("\n").append(header.text).append("\n");
    }
    return sha256_hex(identity);
}

// GCC finds kiln/prelude.h.gch beside kiln/prelude.h and uses it when the compile's options
// allow (else it reads the header: a slower compile, never a wrong one). Clang's precompiled
// headers work otherwise, so it reads the header.
void precompile(const HostCompiler& compiler, const std::vector<std::string>& options,
                const fs::path& include, const char* name) {
    if (compiler.version.find("clang") != std::string::npos) {
        return;
    }
    const ScratchDirectory logs;
    std::vector<std::string> argv{compiler.path};
    std::copy_if(options.begin(), options.end(), std::back_inserter(argv),
                 [](const std::string& option) { return option != "-shared"; });
    const fs::path header = include / name;
    const fs::path precompiled = header.string() + ".gch";
    argv.insert(argv.end(), {"-I", include.string(), "-x", "c++-header", header.string(), "-o",
                             precompiled.string()});
    if (run_process(argv, logs.path()).exit_code != 0) {
        std::error_code ignored;
        fs::remove(precompiled, ignored);
    }
}

// Moves a directory that cannot serve out of the way, then removes it: a renamed directory is
// gone from `place` at once for every process, whatever removing it takes.
void discard(const fs::path& root, const fs::path& place) {
    const ScratchDirectory discarded(root);
    std::error_code ignored;
    fs::rename(place, discarded.path(), ignored);
}

// A directory that cannot serve: another user's is reported (once), a damaged one rebuilt quietly.
void reject(const fs::path& root, const fs::path& place, const PreludeProblem& problem) {
    if (problem.untrusted) {
        warn_once("prelude-trust " + place.string(), "replacing the host prelude directory '" +
                                                         place.string() + "': " + problem.reason);
    } else {
        log::info("cache: rebuilding the host prelude in {}: {}", place.string(), problem.reason);
    }
    discard(root, place);
}

// Builds the tree in a scratch directory beside its place, with its manifest, then adopts it
// into the cache, leased throughout; when another thread or process got there first, theirs
// serves if it checks out.
std::optional<TreeLease> build(const HostCompiler& compiler,
                               const std::vector<std::string>& options,
                               std::span<const DeviceHeader> headers, const DiskCache& cache,
                               const std::string& key) {
    const fs::path place = cache.tree_path(key);
    if (!fs::exists(cache.directory())) {
        fs::create_directories(cache.directory());
        fs::permissions(cache.directory(), fs::perms::owner_all, fs::perm_options::replace);
    }
    fs::create_directories(place.parent_path());
    const auto start = std::chrono::steady_clock::now();
    ScratchDirectory scratch(place.parent_path());
    write_prelude(scratch.path(), headers);
    precompile(compiler, options, scratch.path(), prelude_header);
    precompile(compiler, options, scratch.path(), cuda_prelude_header);
    write_prelude_manifest(scratch.path());
    auto lease = TreeLease::acquire(scratch.path());
    if (lease && cache.adopt_tree(key, scratch.path())) {
        scratch.keep();
        lease->moved_to(place);
        const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
        log::info("cache: host prelude precompiled into {} in {:.3f} s", place.string(),
                  seconds.count());
        return lease;
    }
    lease.reset();
    auto theirs = TreeLease::acquire(place);
    if (theirs && !check_prelude(place)) {
        return theirs;
    }
    return std::nullopt;
}

// What this process knows of one header set's prelude.
struct PreludeState {
    std::optional<DiskCache> cache;  // nothing: compiles read the headers
    std::string key;
    std::pair<std::uint64_t, std::uint64_t> checked{};  // the tree found matching its manifest
};

PreludeState first_state(const HostCompiler& compiler, const std::vector<std::string>& options,
                         std::span<const DeviceHeader> headers) {
    PreludeState state;
    try {
        state.cache = DiskCache::trusted_from_environment();
    } catch (const std::exception& e) {  // a malformed KILN_CACHE_SIZE_LIMIT: the compile says so
        log::info("cache: host prelude not kept: {}", e.what());
    }
    if (!state.cache) {
        return state;
    }
    const fs::path trees = tree_folder(state.cache->directory());
    if (auto reason = untrusted_directory(trees)) {
        warn_once("prelude-trust " + trees.string(),
                  "not using the host prelude directory '" + trees.string() + "': " + *reason +
                      "; kernels compile without the precompiled prelude");
        state.cache.reset();
        return state;
    }
    state.key = prelude_key(compiler, options, headers);
    return state;
}

// The prelude's tree, leased: the one in place when it checks out, else one built now.
std::optional<TreeLease> lease(const HostCompiler& compiler,
                               const std::vector<std::string>& options,
                               std::span<const DeviceHeader> headers, PreludeState& state) {
    const fs::path place = state.cache->tree_path(state.key);
    if (auto found = TreeLease::acquire(place)) {
        if (found->identity() == state.checked) {
            return found;
        }
        const auto problem = check_prelude(place);
        if (!problem) {
            log::debug("cache: host prelude found in {}", place.string());
            state.checked = found->identity();
            return found;
        }
        found.reset();
        reject(tree_folder(state.cache->directory()), place, *problem);
    }
    try {
        auto built = build(compiler, options, headers, *state.cache, state.key);
        if (built) {
            state.checked = built->identity();
            return built;
        }
    } catch (const std::exception& e) {
        log::info("cache: host prelude not precompiled: {}", e.what());
    }
    // Compiles read the headers from now on, rather than try again each time.
    state.cache.reset();
    return std::nullopt;
}

}  // namespace

void write_prelude(const fs::path& include, std::span<const DeviceHeader> headers) {
    for (const auto& header : headers) {
        write_file(include / header.name, header.text);
    }
    write_file(include / prelude_header, "#include <kiln/host.h>\n#include <kiln/device.h>\n");
    write_file(include / cuda_prelude_header,
               "#include <kiln/host.h>\n#include <kiln/host_cuda.h>\n#include <kiln/device.h>\n");
}

std::optional<TreeLease> prelude_directory(const HostCompiler& compiler,
                                           const std::vector<std::string>& options,
                                           std::span<const DeviceHeader> headers) {
    // Header sets live as long as the process (core/compile/compile_request.cpp), so their
    // address names them. A compile that must build the tree does so while the others wait.
    static std::mutex mutex;
    static auto& known = *new std::map<const DeviceHeader*, PreludeState>();
    const std::scoped_lock lock(mutex);
    auto found = known.find(headers.data());
    if (found == known.end()) {
        found = known.emplace(headers.data(), first_state(compiler, options, headers)).first;
    }
    if (!found->second.cache) {
        return std::nullopt;
    }
    return lease(compiler, options, headers, found->second);
}

}  // namespace kiln::detail::host
