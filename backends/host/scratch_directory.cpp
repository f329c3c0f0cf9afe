#include "scratch_directory.hpp"

#include "system_error.hpp"

#include <kiln/error.hpp>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <string>

namespace kiln::detail::host {

ScratchDirectory::ScratchDirectory(const std::filesystem::path& parent) {
    std::string pattern = (parent / "kiln-host-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
        throw BackendError("mkdtemp", errno, error_text(errno));
    }
    path_ = pattern;
}

ScratchDirectory::~ScratchDirectory() {
    if (!kept_) {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
}

void write_file(const std::filesystem::path& path, std::string_view text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    // A short file is only written when the stream closes: a full disk shows there.
    out.close();
    if (out.fail()) {
        throw BackendError("write", 0, "could not write " + path.string());
    }
}

}  // namespace kiln::detail::host
