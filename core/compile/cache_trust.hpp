// Whether kiln may use what it finds in a cache directory. Whoever can write there can plant code
// that kiln loads and runs, so, as ccache and pip do, kiln keeps code only in a directory of this
// user's that no one else may write to, and reads only files of this user's.
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <string>

namespace kiln::detail {

// Why `directory` must not hold kiln's code: what it names (through any links) is not a
// directory, belongs to another user, or its group or others may write to it. Nothing when it may,
// or when it does not exist yet (kiln makes it, private).
[[nodiscard]] std::optional<std::string> untrusted_directory(
    const std::filesystem::path& directory);

// Why an opened file (its fstat) must not be used: it is not a regular file, belongs to another
// user, or its group or others may write to it. Nothing when it may.
[[nodiscard]] std::optional<std::string> untrusted_file(const struct stat& status);

}  // namespace kiln::detail
