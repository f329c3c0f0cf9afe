#include "jit_definition.hpp"

#include "../../compile/compile_cache.hpp"
#include "../raw/module_state.hpp"

#include <kiln/error.hpp>
#include <kiln/jit_kernel.hpp>

namespace kiln {

JitFunction::JitFunction(const detail::JitSource& source)
    : name_(source.name), source_(detail::jit_function_source(source)) {}

namespace detail {

namespace {

// "argument 2 ('out', declared 'long long* out')"
std::string describe_argument(const JitDefinition& definition, std::size_t index) {
    std::string text = "argument " + std::to_string(index + 1);
    if (index < definition.parameters.size()) {
        const KernelParameter& p = definition.parameters[index];
        text += " (" + (p.name.empty() ? std::string() : "'" + p.name + "', ") + "declared '" +
                p.text + "')";
    }
    return text;
}

}  // namespace

RawKernel jit_raw_kernel(const JitDefinition& definition) {
    std::vector<std::string> expressions;
    if (!definition.name_expression.empty()) {
        expressions.push_back(definition.name_expression);
    }
    // The module and its program are named after the kernel: a compile error reads "compiling
    // kernel 'scale' failed", its log "... in the compilation of scale.cu".
    auto module = std::make_shared<ModuleState>(
        ModuleState::Source{definition.source, definition.options, std::move(expressions)},
        definition.name);
    if (definition.name_expression.empty()) {
        return {std::move(module), definition.name, definition.name};
    }
    std::string lowered = module->lowered_name(current_device(), definition.name_expression);
    return {std::move(module), definition.name_expression, std::move(lowered)};
}

JitKernelBase::JitKernelBase(const JitSource& source, const JitConfig& config)
    : definition_(std::make_shared<const JitDefinition>(jit_definition(source, config))),
      kernel_(jit_raw_kernel(*definition_)) {}

JitKernelBase::JitKernelBase(JitInstance instance)
    : definition_(std::move(instance.definition)), kernel_(std::move(instance.kernel)) {}

const std::string& JitKernelBase::name() const noexcept {
    return definition_->name;
}

const std::string& JitKernelBase::source() const noexcept {
    return definition_->source;
}

const std::vector<std::string>& JitKernelBase::options() const noexcept {
    return definition_->options;
}

std::vector<char> JitKernelBase::compile(const std::string& target) const {
    std::vector<std::string> expressions;
    if (!definition_->name_expression.empty()) {
        expressions.push_back(definition_->name_expression);
    }
    return compile_cached({definition_->source, definition_->name, definition_->options,
                           std::move(expressions), true},
                          target)
        .image;
}

void JitKernelBase::throw_wrong_dtype(std::size_t index, DType expected, DType actual) const {
    throw TypeError("kiln: " + jit_label(*definition_) + ": " +
                    describe_argument(*definition_, index) + " is an ndarray of " +
                    std::string(kiln::name(actual)) + ", but the parameter points to " +
                    std::string(kiln::name(expected)));
}

void JitKernelBase::throw_out_of_range(std::size_t index, std::string_view value,
                                       DType parameter) const {
    throw TypeError("kiln: " + jit_label(*definition_) + ": " +
                    describe_argument(*definition_, index) + " is " + std::string(value) +
                    ", out of range for the parameter's " + std::string(kiln::name(parameter)));
}

}  // namespace detail

}  // namespace kiln
