#include "jit_definition.hpp"

#include <kiln/jit_kernel.hpp>

#include <map>
#include <mutex>

namespace kiln::detail {

// One module per instantiation, compiled with that name expression alone, so an instantiation
// made later does not recompile those made before.
class JitTemplateState {
public:
    explicit JitTemplateState(JitDefinition definition) : definition_(std::move(definition)) {}

    [[nodiscard]] const JitDefinition& definition() const noexcept { return definition_; }

    JitInstance instance(std::initializer_list<DType> types) {
        std::string expression = definition_.name + "<";
        for (const DType type : types) {
            expression +=
                std::string(expression.back() == '<' ? "" : ", ") + std::string(c_type(type));
        }
        expression += ">";
        const std::scoped_lock lock(mutex_);
        if (auto found = instances_.find(expression); found != instances_.end()) {
            return found->second;
        }
        auto definition = std::make_shared<JitDefinition>(definition_);
        definition->name_expression = expression;
        RawKernel kernel = jit_raw_kernel(*definition);
        JitInstance made{std::move(definition), std::move(kernel)};
        instances_.emplace(expression, made);
        return made;
    }

private:
    JitDefinition definition_;
    std::mutex mutex_;
    std::map<std::string, JitInstance, std::less<>> instances_;
};

JitTemplateBase::JitTemplateBase(const JitSource& source, const JitConfig& config)
    : state_(std::make_shared<JitTemplateState>(jit_definition(source, config))) {}

const std::string& JitTemplateBase::name() const noexcept {
    return state_->definition().name;
}

const std::string& JitTemplateBase::source() const noexcept {
    return state_->definition().source;
}

JitInstance JitTemplateBase::instance(std::initializer_list<DType> types) const {
    return state_->instance(types);
}

}  // namespace kiln::detail
