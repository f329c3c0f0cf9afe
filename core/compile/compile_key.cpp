#include "compile_key.hpp"

#include "byte_encoding.hpp"
#include "sha256.hpp"

#include <kiln/config.hpp>

#include <vector>

namespace kiln::detail {

std::string cache_key(const CacheKeyParts& parts) {
    Bytes encoded;
    // A label and a layout number, so that a new layout never reuses an old layout's keys.
    append_run(encoded, std::string_view("kiln compile cache key 1"));
    append_run(encoded, parts.backend);
    append_run(encoded, parts.compiler_version);
    append_run(encoded, parts.target);
    append_integer(encoded, parts.options.size(), 8);
    for (const auto& option : parts.options) {
        append_run(encoded, option);
    }
    append_run(encoded, parts.source);
    append_run(encoded, parts.kiln_version);
    return to_hex(sha256(encoded));
}

std::string headers_digest(std::string_view fingerprint) {
    Bytes encoded;
    append_run(encoded, std::string_view("kiln device headers 2"));
    append_run(encoded, fingerprint);
    return to_hex(sha256(encoded));
}

std::string compile_key(const CompileRequest& request, BackendKind backend,
                        std::string_view compiler_version, std::string_view digest) {
    std::vector<std::string> key_options = request.options;
    for (const auto& expression : request.name_expressions) {
        key_options.push_back("--kiln-name-expression=" + expression);
    }
    key_options.push_back("--kiln-device-headers=" + std::string(digest));
    if (request.cuda_dialect) {
        key_options.emplace_back("--kiln-cuda-dialect");
    }
    return cache_key({to_string(backend), compiler_version, request.target, key_options,
                      request.source, KILN_VERSION});
}

}  // namespace kiln::detail
