#include "toolkit_headers.hpp"

#include "../core/env.hpp"

#include <algorithm>
#include <system_error>

namespace kiln::detail {

namespace {

namespace fs = std::filesystem;

// A directory as it is reported and passed: absolute, without "." and "..", its symbolic links
// resolved, so that a /usr/local/cuda link moved to another toolkit changes the cache key.
std::string normalized(const fs::path& path) {
    std::error_code error;
    const fs::path canonical = fs::weakly_canonical(path, error);
    return (error ? path.lexically_normal() : canonical).string();
}

std::vector<fs::path> split_list(std::string_view list) {
    std::vector<fs::path> paths;
    while (!list.empty()) {
        const auto colon = list.find(':');
        if (const auto entry = list.substr(0, colon); !entry.empty()) {
            paths.emplace_back(entry);
        }
        list.remove_prefix(colon == std::string_view::npos ? list.size() : colon + 1);
    }
    return paths;
}

// Every place to look, in order, each once.
std::vector<std::string> candidates(const ToolkitLayout& layout, const fs::path& library) {
    std::vector<fs::path> paths;
    if (const auto chosen = env::get(layout.override_variable.c_str())) {
        paths = split_list(*chosen);
    } else {
        if (!library.empty()) {
            for (const auto& relative : layout.beside_library) {
                paths.push_back(library.parent_path() / relative);
            }
        }
        for (const auto& variable : layout.root_variables) {
            if (const auto root = env::get(variable.c_str())) {
                for (const auto& relative : layout.under_root) {
                    paths.push_back(fs::path(*root) / relative);
                }
            }
        }
        paths.insert(paths.end(), layout.standard.begin(), layout.standard.end());
    }
    std::vector<std::string> unique;
    for (const auto& path : paths) {
        if (auto directory = normalized(path);
            std::find(unique.begin(), unique.end(), directory) == unique.end()) {
            unique.push_back(std::move(directory));
        }
    }
    return unique;
}

bool exists(const fs::path& path, bool directory) {
    std::error_code error;
    return directory ? fs::is_directory(path, error) : fs::is_regular_file(path, error);
}

}  // namespace

ToolkitHeaders find_toolkit_headers(const ToolkitLayout& layout, const fs::path& library) {
    ToolkitHeaders headers;
    auto& search = headers.search;
    search.variable = layout.override_variable;
    for (auto& directory : candidates(layout, library)) {
        search.searched.push_back(directory);
        if (!exists(fs::path(directory) / layout.marker, false)) {
            continue;
        }
        search.used.push_back(directory);
        for (const auto& nested : layout.nested) {
            if (const fs::path path = fs::path(directory) / nested; exists(path, true)) {
                search.used.push_back(normalized(path));
            }
        }
        break;
    }
    for (const auto& directory : search.used) {
        headers.options.push_back("-I" + directory);
    }
    return headers;
}

bool reports_missing_header(std::string_view log) {
    // NVRTC: 'cannot open source file "x"', 'could not open source file "x"'; clang (HIPRTC):
    // "fatal error: 'x' file not found".
    return log.find("open source file") != std::string_view::npos ||
           log.find("file not found") != std::string_view::npos;
}

}  // namespace kiln::detail
