#include "prelude_cache.hpp"

#include "../../core/compile/cache_trust.hpp"
#include "../../core/compile/sha256.hpp"
#include "../../core/log.hpp"
#include "../../core/warning.hpp"
#include "prelude_manifest.hpp"
#include "process.hpp"
#include "scratch_directory.hpp"

#include <kiln/compile_cache.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>

namespace kiln::detail::host {

namespace {

namespace fs = std::filesystem;

// The directory's name: a digest of everything the precompiled prelude depends on.
std::string prelude_key(const HostCompiler& compiler, const std::vector<std::string>& options,
                        std::span<const DeviceHeader> headers) {
    std::string identity = "kiln host prelude 3\n" + compiler.path + "\n" + compiler.version + "\n";
    for (const auto& option : options) {
        identity.append(option).append("\n");
    }
    for (const auto& header : headers) {
        identity.append(header.name).append("\n").append(header.text).append("\n");
    }
    return sha256_hex(identity).substr(0, 32);
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

// Builds the directory in a scratch directory beside its place, with its manifest, then renames
// it there; when another thread or process got there first, theirs serves if it checks out.
std::optional<fs::path> build(const HostCompiler& compiler, const std::vector<std::string>& options,
                              std::span<const DeviceHeader> headers) {
    const auto cache = compile_cache_directory();  // a trusted directory, or nothing
    if (!cache) {
        return std::nullopt;
    }
    const fs::path root = *cache / "host-prelude";
    if (auto reason = untrusted_directory(root)) {
        warn_once("prelude-trust " + root.string(),
                  "not using the host prelude directory '" + root.string() + "': " + *reason +
                      "; kernels compile without the precompiled prelude");
        return std::nullopt;
    }
    const fs::path place = root / prelude_key(compiler, options, headers);
    std::error_code error;
    try {
        if (fs::exists(place, error)) {
            const auto problem = check_prelude(place);
            if (!problem) {
                log::debug("cache: host prelude found in {}", place.string());
                return place;
            }
            reject(root, place, *problem);
        }
        if (!fs::exists(*cache)) {
            fs::create_directories(*cache);
            fs::permissions(*cache, fs::perms::owner_all, fs::perm_options::replace);
        }
        fs::create_directories(root);
        const auto start = std::chrono::steady_clock::now();
        ScratchDirectory scratch(root);
        write_prelude(scratch.path(), headers);
        precompile(compiler, options, scratch.path(), prelude_header);
        precompile(compiler, options, scratch.path(), cuda_prelude_header);
        write_prelude_manifest(scratch.path());
        fs::rename(scratch.path(), place, error);
        if (!error) {
            scratch.keep();
            const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
            log::info("cache: host prelude precompiled into {} in {:.3f} s", place.string(),
                      seconds.count());
            return place;
        }
    } catch (const std::exception& e) {
        // Compiles read the headers instead.
        log::info("cache: host prelude not precompiled: {}", e.what());
    }
    return fs::exists(place, error) && !check_prelude(place) ? std::optional<fs::path>(place)
                                                             : std::nullopt;
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

std::optional<fs::path> prelude_directory(const HostCompiler& compiler,
                                          const std::vector<std::string>& options,
                                          std::span<const DeviceHeader> headers) {
    // Header sets live as long as the process (core/compile/compile_request.cpp), so their
    // address names them. The first compile of a set builds its directory; the others wait.
    static std::mutex mutex;
    static auto& known = *new std::map<const DeviceHeader*, std::optional<fs::path>>();
    const std::scoped_lock lock(mutex);
    if (auto found = known.find(headers.data()); found != known.end()) {
        return found->second;
    }
    return known.emplace(headers.data(), build(compiler, options, headers)).first->second;
}

}  // namespace kiln::detail::host
