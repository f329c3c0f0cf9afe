// The one key a compile is known by in every level of the compile cache (loaded modules, this
// process's memory, the disk): the SHA-256 of everything that shapes the binary.
#pragma once

#include "../backend.hpp"

#include <span>
#include <string>
#include <string_view>

namespace kiln::detail {

// Everything that changes the compiled binary.
struct CacheKeyParts {
    std::string_view backend;
    std::string_view compiler_version;
    std::string_view target;
    std::span<const std::string> options;
    std::string_view source;
    std::string_view kiln_version;
};

// The SHA-256 of the parts in lower-case hex. Each part is length-prefixed, so different lists of
// parts never encode to the same bytes (("ab", "c") and ("a", "bc") give different keys).
[[nodiscard]] std::string cache_key(const CacheKeyParts& parts);

// A digest of device headers' fingerprint (device_headers_fingerprint: their names and build-time
// hashes), which stands for them in compile keys: an edited header changes every key.
[[nodiscard]] std::string headers_digest(std::string_view fingerprint);

// The key of `request` (its `key` field aside) compiled by `backend`'s compiler
// `compiler_version`, with `digest` (headers_digest) standing for the request's headers. Name
// expressions count as options: they change what the compiler emits.
[[nodiscard]] std::string compile_key(const CompileRequest& request, BackendKind backend,
                                      std::string_view compiler_version, std::string_view digest);

}  // namespace kiln::detail
