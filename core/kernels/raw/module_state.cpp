#include "module_state.hpp"

#include "../../compile/compile_cache.hpp"
#include "../../compile/module_cache.hpp"
#include "../../lifetime.hpp"

#include <kiln/device.hpp>
#include <kiln/error.hpp>

namespace kiln::detail {

ModuleState::ModuleState(Source source, std::string label)
    : source_(std::move(source)), label_(std::move(label)) {}

ModuleState::ModuleState(std::vector<char> image, std::string label)
    : image_(std::move(image)), label_(std::move(label)) {}

ModuleState::~ModuleState() {
    if (process_exiting()) {
        return;
    }
    // Modules compiled from source are shared through the process's module cache.
    if (source_) {
        return;
    }
    for (std::size_t device = 0; device < devices_.size(); ++device) {
        if (devices_[device].module == nullptr) {
            continue;
        }
        try {
            backend().unload_module(static_cast<int>(device), devices_[device].module);
        } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor cannot report it
        }
    }
}

const ModuleState::Source* ModuleState::source() const noexcept {
    return source_ ? &*source_ : nullptr;
}

CompiledBinary ModuleState::compile(const std::string& target) const {
    if (!source_) {
        throw Error("kiln: " + label_ +
                    " was loaded from a code object: there is no source to "
                    "compile");
    }
    return compile_cached(
        {source_->code, label_, source_->options, source_->name_expressions, true}, target);
}

ModuleState::Loaded& ModuleState::loaded_locked(int device) {
    if (devices_.size() <= static_cast<std::size_t>(device)) {
        devices_.resize(static_cast<std::size_t>(device) + 1);
    }
    Loaded& loaded = devices_[static_cast<std::size_t>(device)];
    if (loaded.module != nullptr) {
        return loaded;
    }
    if (source_) {
        LoadedModule shared = cached_module(
            device, {source_->code, label_, source_->options, source_->name_expressions, true});
        lowered_names_ = std::move(shared.lowered_names);
        loaded.module = shared.module;
    } else {
        loaded.module = backend().load_module(device, image_);
    }
    return loaded;
}

ModuleState::Function ModuleState::function(int device, const std::string& name) {
    auto& gpu = backend();
    const std::scoped_lock lock(mutex_);
    Loaded& loaded = loaded_locked(device);
    if (auto found = loaded.functions.find(name); found != loaded.functions.end()) {
        return found->second;
    }
    Function function;
    try {
        function.native = gpu.get_function(device, loaded.module, name.c_str());
    } catch (const BackendError& e) {
        throw Error("kiln: " + label_ + ": the module has no kernel '" + name + "' (" + e.call() +
                    ": " + e.text() + ")");
    }
    function.attributes = gpu.function_attributes(device, function.native);
    loaded.functions.emplace(name, function);
    return function;
}

void ModuleState::refresh_attributes(int device, const std::string& name) {
    auto& gpu = backend();
    const std::scoped_lock lock(mutex_);
    Loaded& loaded = loaded_locked(device);
    if (auto found = loaded.functions.find(name); found != loaded.functions.end()) {
        found->second.attributes = gpu.function_attributes(device, found->second.native);
    }
}

std::pair<void*, std::size_t> ModuleState::global(int device, const std::string& name) {
    auto& gpu = backend();
    const std::scoped_lock lock(mutex_);
    Loaded& loaded = loaded_locked(device);
    try {
        return gpu.get_global(device, loaded.module, name.c_str());
    } catch (const BackendError& e) {
        throw Error("kiln: " + label_ + ": the module has no global '" + name + "' (" + e.call() +
                    ": " + e.text() + ")");
    }
}

std::string ModuleState::lowered_name(int device, std::string_view expression) {
    const std::scoped_lock lock(mutex_);
    if (source_) {
        (void)loaded_locked(device);  // compiling gives the lowered names
    }
    if (lowered_names_) {
        for (const auto& [registered, lowered] : *lowered_names_) {
            if (registered == expression) {
                return lowered;
            }
        }
    }
    std::string registered;
    if (source_) {
        for (const auto& e : source_->name_expressions) {
            registered += (registered.empty() ? "" : ", ") + e;
        }
    }
    throw Error("kiln: " + label_ + ": name expression '" + std::string(expression) +
                "' was not registered (registered: " +
                (registered.empty() ? std::string("none") : registered) +
                "); pass it in RawModule's name_expressions");
}

}  // namespace kiln::detail
