// What RawModule and RawKernel share: the source (or a prebuilt code object), and per device the
// loaded module with the functions looked up in it. Compiling happens on first use per device;
// a module built from source comes from the process's module cache, so kernel objects with the
// same source share it.
#pragma once

#include "../../backend.hpp"

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln::detail {

class ModuleState {
public:
    struct Source {
        std::string code;
        std::vector<std::string> options;
        std::vector<std::string> name_expressions;
    };
    struct Function {
        NativeFunction native = nullptr;
        FunctionAttributes attributes;
    };

    // `label` names the module in messages ("RawKernel 'add'", "RawModule").
    ModuleState(Source source, std::string label);
    ModuleState(std::vector<char> image, std::string label);
    ~ModuleState();
    ModuleState(const ModuleState&) = delete;
    ModuleState& operator=(const ModuleState&) = delete;
    ModuleState(ModuleState&&) = delete;
    ModuleState& operator=(ModuleState&&) = delete;

    [[nodiscard]] const std::string& label() const noexcept { return label_; }
    [[nodiscard]] const Source* source() const noexcept;

    // Function `name` on `device` (loading the module there first). Throws Error naming the
    // function when the module has none of that name.
    [[nodiscard]] Function function(int device, const std::string& name);
    // Re-reads a function's attributes on `device` after one was changed.
    void refresh_attributes(int device, const std::string& name);
    // The module's global `name` on `device`.
    [[nodiscard]] std::pair<void*, std::size_t> global(int device, const std::string& name);
    // The lowered name of a registered name expression; Error when it was not registered.
    [[nodiscard]] std::string lowered_name(int device, std::string_view expression);

    // Compile-only, for an explicit target.
    [[nodiscard]] CompiledBinary compile(const std::string& target) const;

private:
    struct Loaded {
        NativeModule module = nullptr;
        std::map<std::string, Function, std::less<>> functions;
    };
    Loaded& loaded_locked(int device);

    std::optional<Source> source_;
    std::vector<char> image_;  // a prebuilt code object
    std::string label_;
    std::mutex mutex_;
    std::vector<Loaded> devices_;
    std::optional<std::vector<std::pair<std::string, std::string>>> lowered_names_;
};

}  // namespace kiln::detail
