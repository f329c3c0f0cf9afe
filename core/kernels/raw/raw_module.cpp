#include "module_state.hpp"

#include "../../backend.hpp"

#include <kiln/error.hpp>
#include <kiln/raw_module.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>

namespace kiln {

RawModule::RawModule(std::string code, std::vector<std::string> options,
                     std::vector<std::string> name_expressions)
    : state_(std::make_shared<detail::ModuleState>(
          detail::ModuleState::Source{std::move(code), std::move(options),
                                      std::move(name_expressions)},
          "RawModule")) {}

RawModule::RawModule(std::shared_ptr<detail::ModuleState> state) : state_(std::move(state)) {}

RawModule RawModule::from_file(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        throw Error("kiln: RawModule::from_file: cannot open '" + path.string() + "'");
    }
    std::vector<char> image((std::istreambuf_iterator<char>(file)),
                            std::istreambuf_iterator<char>());
    if (image.empty()) {
        throw Error("kiln: RawModule::from_file: '" + path.string() + "' is empty");
    }
    image.push_back('\0');  // PTX is text and must end in a NUL; binaries ignore the extra byte
    return RawModule(std::make_shared<detail::ModuleState>(
        std::move(image), "RawModule '" + path.filename().string() + "'"));
}

RawKernel RawModule::get_function(std::string_view name) const {
    const auto* source = state_->source();
    const bool registered = source != nullptr && std::find(source->name_expressions.begin(),
                                                           source->name_expressions.end(),
                                                           name) != source->name_expressions.end();
    const int device = detail::current_device();
    std::string lookup = registered ? state_->lowered_name(device, name) : std::string(name);
    if (!registered && lookup.find_first_of("<>(), :") != std::string::npos) {
        (void)state_->lowered_name(device, name);  // throws: an expression not registered
    }
    RawKernel kernel(state_, std::string(name), std::move(lookup));
    (void)kernel.function();  // a missing function is an error now, not at the first launch
    return kernel;
}

GlobalSymbol RawModule::get_global(std::string_view name) const {
    const auto [ptr, bytes] = state_->global(detail::current_device(), std::string(name));
    return {ptr, bytes};
}

std::vector<char> RawModule::compile(const std::string& target) const {
    if (target.empty()) {
        throw Error("kiln: RawModule::compile: name a target such as sm_90 or gfx90a");
    }
    return state_->compile(target).image;
}

}  // namespace kiln
