#include "jit_definition.hpp"

#include <kiln/error.hpp>

#include <algorithm>
#include <string_view>

namespace kiln::detail {

namespace {

std::string_view text(const char* piece) {
    return piece == nullptr ? std::string_view{} : std::string_view(piece);
}

// A #line directive naming the macro's file and line: the body, stringised onto one line, is
// reported there.
std::string line_directive(const JitSource& source) {
    std::string file;
    for (const char c : text(source.file)) {
        if (c == '"' || c == '\\') {
            file += '\\';
        }
        file += c;
    }
    return "#line " + std::to_string(source.line) + " \"" + file + "\"\n";
}

// "(class T, int N)" without its parentheses.
std::string_view unparenthesised(std::string_view list) {
    if (list.size() >= 2 && list.front() == '(' && list.back() == ')') {
        return list.substr(1, list.size() - 2);
    }
    return list;
}

}  // namespace

std::string jit_label(const JitDefinition& definition) {
    const std::string& name =
        definition.name_expression.empty() ? definition.name : definition.name_expression;
    return "JIT kernel '" + name + "' (" + definition.location + ")";
}

std::string jit_function_source(const JitSource& source) {
    return line_directive(source) + "__device__ " + std::string(text(source.result)) + " " +
           std::string(text(source.name)) + std::string(text(source.parameters)) + " " +
           std::string(text(source.body)) + "\n";
}

JitDefinition jit_definition(const JitSource& source, const JitConfig& config) {
    JitDefinition definition;
    definition.name = std::string(text(source.name));
    definition.options = config.options;
    definition.location = std::string(text(source.file)) + ":" + std::to_string(source.line);
    definition.parameters =
        parameter_list(text(source.parameters)).value_or(std::vector<KernelParameter>{});
    std::string& code = definition.source;
    if (!config.preamble.empty()) {
        code += "#line 1 \"preamble of " + definition.name + "\"\n" + config.preamble + "\n";
    }
    std::vector<std::string_view> helpers;
    for (const JitFunction& helper : config.uses) {
        if (std::find(helpers.begin(), helpers.end(), helper.name()) == helpers.end()) {
            helpers.emplace_back(helper.name());
            code += helper.source();
        }
    }
    code += line_directive(source);
    if (source.template_parameters != nullptr) {
        code += "template <" + std::string(unparenthesised(source.template_parameters)) + "> ";
    } else {
        code += "extern \"C\" ";
    }
    code += "__global__ void " + definition.name + std::string(text(source.parameters)) + " " +
            std::string(text(source.body)) + "\n";
    return definition;
}

}  // namespace kiln::detail
