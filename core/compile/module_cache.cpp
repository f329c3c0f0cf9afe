#include "module_cache.hpp"

#include "compile_cache.hpp"

#include <map>
#include <mutex>

namespace kiln::detail {

LoadedModule cached_module(const Program& program) {
    static std::mutex mutex;
    static auto& modules = *new std::map<std::pair<int, std::string>, LoadedModule>();
    auto& gpu = backend();
    const CompileRequest request = resolve(program);
    std::pair<int, std::string> key{gpu.current_device(), request.key};
    {
        const std::scoped_lock lock(mutex);
        if (auto found = modules.find(key); found != modules.end()) {
            return found->second;
        }
    }
    // Compiled and loaded outside the lock: other kernels need not wait for this one. Two
    // threads racing on one program both load it; the first kept serves every later call.
    auto binary = CompileCache::instance().get(request);
    LoadedModule loaded{gpu.load_module(binary.image), std::move(binary.lowered_names)};
    const std::scoped_lock lock(mutex);
    return modules.emplace(std::move(key), std::move(loaded)).first->second;
}

NativeFunction module_function(const Program& program, const std::string& name) {
    return backend().get_function(cached_module(program).module, name.c_str());
}

}  // namespace kiln::detail
