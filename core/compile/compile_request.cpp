#include "compile_request.hpp"

#include "../backend_traits.hpp"
#include "../codegen/device_prelude.hpp"
#include "../env.hpp"
#include "compile_key.hpp"

#include <kiln/device.hpp>

#include <map>
#include <mutex>
#include <utility>

namespace kiln::detail {

namespace {

struct HeaderSet {
    std::vector<DeviceHeader> headers;
    std::string digest;
};

// Only kiln/warp.h differs between targets, by the warp size it spells, so one set per backend
// and warp size serves every target; sets are never erased, so views into them stay valid.
const HeaderSet& header_set(BackendKind backend, std::string_view target) {
    static std::mutex mutex;
    static auto& sets = *new std::map<std::pair<BackendKind, int>, HeaderSet>();
    const std::pair key{backend, traits(backend).warp_size(target)};
    const std::scoped_lock lock(mutex);
    auto found = sets.find(key);
    if (found == sets.end()) {
        auto headers = device_headers(backend, target);
        auto digest = headers_digest(device_headers_fingerprint(backend, target));
        found = sets.emplace(key, HeaderSet{std::move(headers), std::move(digest)}).first;
    }
    return found->second;
}

}  // namespace

bool compile_debug_requested() {
    const auto value = env::get("KILN_COMPILE_DEBUG");
    return value && *value != "0";
}

CompileRequest resolve(const Program& program, std::string_view target) {
    auto& gpu = backend();
    CompileRequest request{program.source,           program.kernel,
                           program.options,          std::string(target),
                           program.name_expressions, {},
                           program.cuda_dialect,     {}};
    if (request.target.empty()) {
        request.target = Device::current().properties().arch;
    }
    if (compile_debug_requested()) {
        const auto debug = traits(gpu.kind()).debug_options;
        request.options.insert(request.options.end(), debug.begin(), debug.end());
    }
    // After the program's own, so that a user's include directories are searched first.
    const auto& toolkit = gpu.toolkit_headers().options;
    request.options.insert(request.options.end(), toolkit.begin(), toolkit.end());
    const HeaderSet& headers = header_set(gpu.kind(), request.target);
    request.headers = headers.headers;
    request.key = compile_key(request, gpu.kind(), gpu.compiler_version(), headers.digest);
    return request;
}

}  // namespace kiln::detail
