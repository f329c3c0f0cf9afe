#include "module_cache.hpp"

#include "../cache/compile_cache.hpp"

#include <map>
#include <mutex>
#include <utility>

namespace kiln::detail {

NativeFunction cached_function(const std::string& source, const std::string& name,
                               const std::vector<std::string>& options) {
    static std::mutex mutex;
    static auto& functions = *new std::map<std::pair<int, std::string>, NativeFunction>();
    auto& backend = detail::backend();
    const int device = backend.current_device();
    // The source holds the name: device, source, name and options identify the function.
    std::string text = source + '\n' + name;
    for (const auto& option : options) {
        text += '\n' + option;
    }
    std::pair<int, std::string> key{device, std::move(text)};
    const std::scoped_lock lock(mutex);
    if (auto found = functions.find(key); found != functions.end()) {
        return found->second;
    }
    const auto binary = compile_cached({source, name, options, "", {}});
    NativeModule module = backend.load_module(binary.image);
    NativeFunction function = backend.get_function(module, name.c_str());
    functions.emplace(std::move(key), function);
    return function;
}

}  // namespace kiln::detail
