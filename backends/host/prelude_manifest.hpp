// The host prelude directory's manifest: each file's size and SHA-256, written when the directory
// is built. A directory that no longer matches (a precompiled header cut short by a full disk or
// a killed process, which GCC refuses with "cannot read PCH file") is rebuilt rather than failing
// every compile; one holding anything not this user's, or writable by others, is not used.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace kiln::detail::host {

// The manifest's file name in the directory it describes.
inline constexpr const char* prelude_manifest = "manifest";

// Writes the manifest of everything now in `directory`. Throws BackendError when it cannot.
void write_prelude_manifest(const std::filesystem::path& directory);

// Why `directory` cannot serve as a prelude: `untrusted` when something in it is another user's,
// or others may write to it; otherwise it no longer matches its manifest.
struct PreludeProblem {
    std::string reason;
    bool untrusted = false;
};

// Nothing when `directory` matches its manifest and everything in it is trusted.
[[nodiscard]] std::optional<PreludeProblem> check_prelude(const std::filesystem::path& directory);

}  // namespace kiln::detail::host
