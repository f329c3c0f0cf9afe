#include "debug_files.hpp"

#include <algorithm>

namespace kiln::detail::host {

std::filesystem::path debug_directory() {
    std::filesystem::path directory = std::filesystem::temp_directory_path() / "kiln-host-debug";
    std::filesystem::create_directories(directory);
    return directory;
}

bool builds_for_debugger(const std::vector<std::string>& options) {
    return std::ranges::any_of(options, [](const std::string& option) {
        return option.starts_with("-g") && option != "-g0";
    });
}

}  // namespace kiln::detail::host
