#include "prelude_manifest.hpp"

#include "../../core/compile/cache_trust.hpp"
#include "../../core/compile/sha256.hpp"
#include "scratch_directory.hpp"

#include <kiln/error.hpp>

#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <map>

namespace kiln::detail::host {

namespace {

namespace fs = std::filesystem;

// A path as messages show it.
std::string quoted(const fs::path& path) {
    std::string text = "'";
    text += path.string();
    text += "'";
    return text;
}

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// "<sha256> <size> <path>" for each file below `directory` but the manifest, in path order; a
// problem instead when anything there is not trusted (cache_trust.hpp).
std::optional<PreludeProblem> describe(const fs::path& directory, std::string& text) {
    std::map<std::string, std::string> lines;
    for (const auto& item : fs::recursive_directory_iterator(directory)) {
        struct stat status {};
        if (::lstat(item.path().c_str(), &status) != 0) {
            return PreludeProblem{quoted(item.path()) + " cannot be examined", false};
        }
        const auto reason =
            S_ISDIR(status.st_mode) ? untrusted_directory(item.path()) : untrusted_file(status);
        if (reason) {
            return PreludeProblem{quoted(item.path()) + ": " + *reason, true};
        }
        const auto name = item.path().lexically_relative(directory).string();
        if (S_ISREG(status.st_mode) && name != prelude_manifest) {
            const std::string content = read_text(item.path());
            lines[name] = sha256_hex(content) + " " + std::to_string(content.size()) + " " + name;
        }
    }
    for (const auto& [name, line] : lines) {
        text.append(line).append("\n");
    }
    return std::nullopt;
}

}  // namespace

void write_prelude_manifest(const fs::path& directory) {
    std::string text;
    if (auto problem = describe(directory, text)) {
        throw BackendError("write", 0, problem->reason);
    }
    write_file(directory / prelude_manifest, text);
}

std::optional<PreludeProblem> check_prelude(const fs::path& directory) {
    try {
        if (auto reason = untrusted_directory(directory)) {
            return PreludeProblem{quoted(directory) + ": " + *reason, true};
        }
        std::string text;
        if (auto problem = describe(directory, text)) {
            return problem;
        }
        if (text != read_text(directory / prelude_manifest)) {
            return PreludeProblem{"its files do not match its manifest", false};
        }
        return std::nullopt;
    } catch (const std::exception& e) {  // a file vanished or could not be read
        return PreludeProblem{e.what(), false};
    }
}

}  // namespace kiln::detail::host
