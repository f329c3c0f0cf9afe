#include "module_cache.hpp"

#include "compile_cache.hpp"

#include <map>
#include <mutex>
#include <utility>

namespace kiln::detail {

namespace {

// Device, source, options and name expressions identify a module.
std::string module_key(const CompileRequest& request) {
    std::string key(request.source);
    for (const auto& option : request.options) {
        key += '\n' + option;
    }
    for (const auto& expression : request.name_expressions) {
        key += "\n#" + expression;
    }
    return key;
}

}  // namespace

LoadedModule cached_module(const CompileRequest& request) {
    static std::mutex mutex;
    static auto& modules = *new std::map<std::pair<int, std::string>, LoadedModule>();
    auto& gpu = backend();
    std::pair<int, std::string> key{gpu.current_device(), module_key(request)};
    {
        const std::scoped_lock lock(mutex);
        if (auto found = modules.find(key); found != modules.end()) {
            return found->second;
        }
    }
    // Compiled and loaded outside the lock: other kernels need not wait for this one. Two
    // threads racing on one source both load it; the first kept serves every later call.
    auto binary = compile_cached(request);
    LoadedModule loaded{gpu.load_module(binary.image), std::move(binary.lowered_names)};
    const std::scoped_lock lock(mutex);
    return modules.emplace(std::move(key), std::move(loaded)).first->second;
}

NativeFunction cached_function(const std::string& source, const std::string& name,
                               const std::vector<std::string>& options) {
    static std::mutex mutex;
    static auto& functions = *new std::map<std::pair<int, std::string>, NativeFunction>();
    auto& gpu = backend();
    std::pair<int, std::string> key{gpu.current_device(), source + '\n' + name};
    for (const auto& option : options) {
        key.second += '\n' + option;
    }
    {
        const std::scoped_lock lock(mutex);
        if (auto found = functions.find(key); found != functions.end()) {
            return found->second;
        }
    }
    const LoadedModule loaded = cached_module({source, name, options, "", {}});
    NativeFunction function = gpu.get_function(loaded.module, name.c_str());
    const std::scoped_lock lock(mutex);
    functions.emplace(std::move(key), function);
    return function;
}

}  // namespace kiln::detail
