#include "compile_cache.hpp"

#include "disk_cache.hpp"

#include <kiln/config.hpp>
#include <kiln/device.hpp>

#include <chrono>
#include <map>
#include <mutex>

namespace kiln::detail {

CompiledBinary compile_cached(const CompileRequest& request) {
    auto& gpu = backend();
    const std::string target =
        request.target.empty() ? Device(gpu.current_device()).properties().arch : request.target;
    // Name expressions change what the compiler emits (lowered names), so they join the options.
    std::vector<std::string> key_options = request.options;
    for (const auto& expression : request.name_expressions) {
        key_options.push_back("--kiln-name-expression=" + expression);
    }
    const std::string compiler = gpu.compiler_version();
    const std::string key = cache_key(
        {to_string(gpu.kind()), compiler, target, key_options, request.source, KILN_VERSION});

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
        binary = {std::move(entry->image), target, {}, std::move(entry->lowered_names)};
    } else {
        CompileRequest resolved = request;
        resolved.target = target;
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
