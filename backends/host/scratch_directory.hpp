// A temporary directory of one compile, removed with everything in it on every path out. Each
// compile has its own, so that threads and processes compiling the same program never share a
// file.
#pragma once

#include <filesystem>
#include <string_view>

namespace kiln::detail::host {

class ScratchDirectory {
public:
    // A new directory kiln-host-XXXXXX in `parent`. Throws BackendError when it cannot be made.
    explicit ScratchDirectory(
        const std::filesystem::path& parent = std::filesystem::temp_directory_path());
    ~ScratchDirectory();
    ScratchDirectory(const ScratchDirectory&) = delete;
    ScratchDirectory& operator=(const ScratchDirectory&) = delete;
    ScratchDirectory(ScratchDirectory&&) = delete;
    ScratchDirectory& operator=(ScratchDirectory&&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

    // Gives the directory up: it is no longer removed (it was renamed into place).
    void keep() noexcept { kept_ = true; }

private:
    std::filesystem::path path_;
    bool kept_ = false;
};

// Writes `text` to `path`, making its directories. Throws BackendError when it cannot.
void write_file(const std::filesystem::path& path, std::string_view text);

}  // namespace kiln::detail::host
