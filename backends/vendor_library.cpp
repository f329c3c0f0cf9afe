#include "vendor_library.hpp"

#include "../core/env.hpp"
#include "../core/log.hpp"

#include <kiln/error.hpp>

#include <algorithm>

namespace kiln::detail {

namespace {

constexpr const char* path_variable = "KILN_VENDOR_LIBRARY_PATH";

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
    std::string out;
    for (const auto& part : parts) {
        out += (out.empty() ? "" : std::string(separator)) + part;
    }
    return out;
}

std::vector<std::string> split(const std::string& list, char separator) {
    std::vector<std::string> parts;
    std::size_t begin = 0;
    while (begin <= list.size()) {
        const std::size_t end = std::min(list.find(separator, begin), list.size());
        if (end > begin) {
            parts.push_back(list.substr(begin, end - begin));
        }
        begin = end + 1;
    }
    return parts;
}

// `name` inside `directory`.
std::string inside(const std::string& directory, const std::string& name) {
    return std::string(directory).append("/").append(name);
}

// The one failure that only means "not in this place".
bool absent(const std::string& error, const std::string& file) {
    return error == file + ": cannot open shared object file: No such file or directory";
}

}  // namespace

LibrarySymbol::LibrarySymbol(VendorLibrary& library, const char* name)
    : name(name), library_(&library), next_(library.symbols_) {
    library.symbols_ = this;
}

void* LibrarySymbol::resolve() const {
    const std::string& reason = library_->load();
    if (!reason.empty()) {
        throw NoDevice("kiln: cannot call " + std::string(name) + ": " + reason);
    }
    // Registered after the library was loaded: look it up now.
    void* resolved = library_->library_.symbol(name);
    if (resolved == nullptr) {
        throw NoDevice("kiln: cannot call " + std::string(name) + ": " + library_->path() +
                       " does not export it");
    }
    address_.store(resolved, std::memory_order_release);
    return resolved;
}

std::vector<std::string> versioned_names(std::string_view base, std::initializer_list<int> majors) {
    std::vector<std::string> names;
    for (int major : majors) {
        std::string name = std::string(base) + "." + std::to_string(major);
        if (std::find(names.begin(), names.end(), name) == names.end()) {
            names.push_back(std::move(name));
        }
    }
    names.emplace_back(base);
    return names;
}

VendorLibrary::VendorLibrary(LibrarySearch search) : search_(std::move(search)) {}

const std::string& VendorLibrary::load() {
    std::call_once(loaded_, [this] {
        reason_ = open();
        if (reason_.empty()) {
            log::info("library: {} loaded from {}", search_.what, library_.path());
        } else {
            log::info("library: {}", reason_);
        }
    });
    return reason_;
}

std::string VendorLibrary::path() {
    (void)load();
    return library_.path();
}

std::vector<VendorLibrary::Place> VendorLibrary::places() const {
    std::vector<Place> places;
    auto add = [&places](std::string directory, std::string origin) {
        const bool seen = std::any_of(places.begin(), places.end(),
                                      [&](const Place& p) { return p.directory == directory; });
        if (!seen) {
            places.push_back({std::move(directory), std::move(origin)});
        }
    };
    if (auto list = env::get(path_variable)) {
        for (auto& directory : split(*list, ':')) {
            add(std::move(directory), path_variable);
        }
        return places;
    }
    for (const char* variable : search_.root_variables) {
        if (auto root = env::get(variable)) {
            for (const auto& sub : search_.subdirectories) {
                add(inside(*root, sub), variable);
            }
        }
    }
    add("", "");
    for (const auto& root : search_.roots) {
        for (const auto& sub : search_.subdirectories) {
            add(inside(root, sub), "");
        }
    }
    for (const auto& directory : search_.directories) {
        add(directory, "");
    }
    return places;
}

std::string VendorLibrary::open() {
    const auto looked = places();
    std::vector<std::string> problems;  // files that exist but could not be used, each once
    auto note = [&problems](std::string problem) {
        if (std::find(problems.begin(), problems.end(), problem) == problems.end()) {
            problems.push_back(std::move(problem));
        }
    };
    for (const auto& place : looked) {
        for (const auto& name : search_.names) {
            const std::string file = place.directory.empty() ? name : inside(place.directory, name);
            DynamicLibrary candidate(file);
            if (!candidate) {
                log::debug("library: {}: trying {}: {}", search_.what, file, candidate.error());
                if (!absent(candidate.error(), file)) {
                    note(candidate.error());
                }
                continue;
            }
            const std::string missing = resolve_all(candidate);
            if (missing.empty()) {
                log::debug("library: {}: trying {}: opened {}", search_.what, file,
                           candidate.path());
                library_ = std::move(candidate);
                return "";
            }
            log::debug("library: {}: trying {}: {} lacks {}", search_.what, file, candidate.path(),
                       missing);
            note(candidate.path() + " lacks " + missing);
        }
    }
    return not_found(looked, problems);
}

std::string VendorLibrary::resolve_all(const DynamicLibrary& candidate) {
    std::vector<std::pair<const LibrarySymbol*, void*>> found;
    std::vector<std::string> missing;
    for (const LibrarySymbol* s = symbols_; s != nullptr; s = s->next_) {
        if (void* address = candidate.symbol(s->name)) {
            found.emplace_back(s, address);
        } else if (std::find(missing.begin(), missing.end(), s->name) == missing.end()) {
            missing.emplace_back(s->name);
        }
    }
    if (!missing.empty()) {
        return join(missing, ", ");
    }
    for (const auto& [s, address] : found) {
        s->address_.store(address, std::memory_order_release);
    }
    return "";
}

std::string VendorLibrary::not_found(const std::vector<Place>& looked,
                                     const std::vector<std::string>& problems) const {
    std::vector<std::string> where;
    where.reserve(looked.size());
    for (const auto& place : looked) {
        if (place.directory.empty()) {
            where.emplace_back(
                "the system's library search (LD_LIBRARY_PATH, ld.so.cache, the default "
                "directories)");
        } else {
            where.push_back(place.directory +
                            (place.origin.empty() ? "" : " (from " + place.origin + ")"));
        }
    }
    std::string reason =
        search_.what + " was not found: kiln looked for " + join(search_.names, ", ") + " in " +
        (where.empty() ? "no place (" + std::string(path_variable) + " names no directory)"
                       : join(where, ", "));
    if (!problems.empty()) {
        reason += "; " + join(problems, "; ");
    }
    return reason;
}

}  // namespace kiln::detail
