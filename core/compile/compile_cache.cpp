#include "compile_cache.hpp"

#include "../backend_traits.hpp"
#include "../env.hpp"
#include "disk_cache.hpp"

#include <kiln/config.hpp>
#include <kiln/device.hpp>

#include <chrono>
#include <map>
#include <mutex>

namespace kiln::detail {

namespace {

// Read at every compile, so a program (or a test) may turn it on and off as it runs.
bool compile_debug_requested() {
    const auto value = env::get("KILN_COMPILE_DEBUG");
    return value && *value != "0";
}

}  // namespace

std::string compile_key(const CompileRequest& request, BackendKind backend,
                        const std::string& compiler_version, std::span<const DeviceHeader> headers,
                        std::span<const std::string> toolkit_options) {
    // Name expressions change what the compiler emits (lowered names), so they join the options.
    std::vector<std::string> key_options = request.options;
    for (const auto& expression : request.name_expressions) {
        key_options.push_back("--kiln-name-expression=" + expression);
    }
    // Editing a device header must change the key, never load a binary built from the old text.
    for (const auto& header : headers) {
        key_options.push_back("--kiln-device-header=" + header.name + "\n" + header.text);
    }
    // Another toolkit's headers (another include directory) build another binary.
    key_options.insert(key_options.end(), toolkit_options.begin(), toolkit_options.end());
    return cache_key({to_string(backend), compiler_version, request.target, key_options,
                      request.source, KILN_VERSION});
}

CompiledBinary compile_cached(const CompileRequest& request) {
    auto& gpu = backend();
    CompileRequest resolved = request;
    if (resolved.target.empty()) {
        resolved.target = Device(gpu.current_device()).properties().arch;
    }
    if (compile_debug_requested()) {
        const auto debug = traits(gpu.kind()).debug_options;
        resolved.options.insert(resolved.options.end(), debug.begin(), debug.end());
    }
    const std::string key =
        compile_key(resolved, gpu.kind(), gpu.compiler_version(),
                    device_headers(gpu.kind(), resolved.target), gpu.toolkit_headers().options);

    static std::mutex mutex;
    static auto& memory = *new std::map<std::string, CompiledBinary, std::less<>>();
    static const std::optional<DiskCache> disk = DiskCache::from_environment();
    {
        const std::scoped_lock lock(mutex);
        if (auto found = memory.find(key); found != memory.end()) {
            count_memory_hit();
            return found->second;
        }
    }
    CompiledBinary binary;
    if (auto entry = disk ? disk->load(key) : std::nullopt) {
        binary = {std::move(entry->image), resolved.target, {}, std::move(entry->lowered_names)};
    } else {
        const auto start = std::chrono::steady_clock::now();
        binary = gpu.compile(resolved);
        count_compile(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        if (disk) {
            // A cache that cannot be written is only a slower next start, never a failure.
            (void)disk->store(key, {binary.image, binary.lowered_names},
                              disk->saves_source() ? request.source : std::string_view{});
        }
    }
    const std::scoped_lock lock(mutex);
    memory.emplace(key, binary);
    return binary;
}

}  // namespace kiln::detail
