#include "module_cache.hpp"

#include "compile_cache.hpp"

#include <kiln/device.hpp>

#include <map>
#include <mutex>

namespace kiln::detail {

LoadedModule cached_module(int device, const Program& program) {
    static std::mutex mutex;
    static auto& modules = *new std::map<std::pair<int, std::string>, LoadedModule>();
    auto& gpu = backend();
    const CompileRequest request = resolve(program, Device(device).properties().arch);
    std::pair<int, std::string> key{device, request.key};
    {
        const std::scoped_lock lock(mutex);
        if (auto found = modules.find(key); found != modules.end()) {
            return found->second;
        }
    }
    // Compiled and loaded outside the lock: other kernels need not wait for this one. Two
    // threads racing on one program both load it; the first kept serves every later call, and
    // the other is unloaded.
    auto binary = CompileCache::instance().get(request);
    LoadedModule loaded{gpu.load_module(device, binary.image), std::move(binary.lowered_names)};
    NativeModule loser = loaded.module;
    LoadedModule kept;
    {
        const std::scoped_lock lock(mutex);
        const auto [found, inserted] = modules.emplace(std::move(key), std::move(loaded));
        kept = found->second;
        if (inserted) {
            loser = nullptr;
        }
    }
    if (loser != nullptr) {
        gpu.unload_module(device, loser);
    }
    return kept;
}

NativeFunction module_function(int device, const Program& program, const std::string& name) {
    return backend().get_function(device, cached_module(device, program).module, name.c_str());
}

}  // namespace kiln::detail
