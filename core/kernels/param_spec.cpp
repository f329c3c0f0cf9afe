#include "param_spec.hpp"

#include <kiln/error.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <utility>

namespace kiln::detail {

namespace {

constexpr std::string_view raw_modifier = "raw";
constexpr std::string_view non_const_modifier = "_non_const";
constexpr std::string_view entry_grammar = "[raw] [_non_const] TYPE NAME";

// C++20's keywords and alternative operator spellings, sorted for binary search.
constexpr std::array<std::string_view, 92> cpp_keywords{
    "alignas",       "alignof",     "and",
    "and_eq",        "asm",         "auto",
    "bitand",        "bitor",       "bool",
    "break",         "case",        "catch",
    "char",          "char16_t",    "char32_t",
    "char8_t",       "class",       "co_await",
    "co_return",     "co_yield",    "compl",
    "concept",       "const",       "const_cast",
    "consteval",     "constexpr",   "constinit",
    "continue",      "decltype",    "default",
    "delete",        "do",          "double",
    "dynamic_cast",  "else",        "enum",
    "explicit",      "export",      "extern",
    "false",         "float",       "for",
    "friend",        "goto",        "if",
    "inline",        "int",         "long",
    "mutable",       "namespace",   "new",
    "noexcept",      "not",         "not_eq",
    "nullptr",       "operator",    "or",
    "or_eq",         "private",     "protected",
    "public",        "register",    "reinterpret_cast",
    "requires",      "return",      "short",
    "signed",        "sizeof",      "static",
    "static_assert", "static_cast", "struct",
    "switch",        "template",    "this",
    "thread_local",  "throw",       "true",
    "try",           "typedef",     "typeid",
    "typename",      "union",       "unsigned",
    "using",         "virtual",     "void",
    "volatile",      "wchar_t",     "while",
    "xor",           "xor_eq",
};
static_assert(std::ranges::is_sorted(cpp_keywords));

bool is_keyword(std::string_view word) {
    return std::ranges::binary_search(cpp_keywords, word);
}

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && is_space(text.front())) {
        text.remove_prefix(1);
    }
    while (!text.empty() && is_space(text.back())) {
        text.remove_suffix(1);
    }
    return text;
}

std::vector<std::string_view> split_words(std::string_view text) {
    std::vector<std::string_view> words;
    std::size_t start = 0;
    while (start < text.size()) {
        while (start < text.size() && is_space(text[start])) {
            ++start;
        }
        std::size_t end = start;
        while (end < text.size() && !is_space(text[end])) {
            ++end;
        }
        if (end > start) {
            words.push_back(text.substr(start, end - start));
        }
        start = end;
    }
    return words;
}

std::string_view kind_name(KernelKind kind) {
    switch (kind) {
        case KernelKind::elementwise:
            return "ElementwiseKernel";
        case KernelKind::reduction:
            return "ReductionKernel";
    }
    throw Error("kiln: invalid KernelKind value " + std::to_string(static_cast<unsigned>(kind)) +
                ": expected KernelKind::elementwise or KernelKind::reduction");
}

// "kiln: ElementwiseKernel 'add': "
std::string kernel_context(std::string_view kernel, KernelKind kind) {
    return "kiln: " + std::string(kind_name(kind)) + " '" + std::string(kernel) + "': ";
}

// "kiln: ElementwiseKernel 'add': in_params entry 2 'raw T y': "
std::string entry_context(std::string_view kernel, KernelKind kind, std::string_view which,
                          std::size_t position, std::string_view entry) {
    return kernel_context(kernel, kind) + std::string(which) + " entry " +
           std::to_string(position) + " '" + std::string(entry) + "': ";
}

// The entry as a parse of it would read: used where only the ParamSpec is at hand.
std::string entry_text(const ParamSpec& param) {
    std::string text;
    if (param.raw) {
        text += std::string(raw_modifier) + " ";
    }
    if (param.non_const) {
        text += std::string(non_const_modifier) + " ";
    }
    return text + param.type_text + " " + param.name;
}

// Why a parameter cannot be called `name`, or empty when it can.
std::string_view reserved_reason(std::string_view name, KernelKind kind) {
    if (name == "i") {
        return "it is the element index of generated code";
    }
    if (name.starts_with('_')) {
        return "names starting with '_' belong to kiln's generated code";
    }
    if (is_keyword(name)) {
        return "it is a C++ keyword";
    }
    if (kind == KernelKind::reduction && (name == "a" || name == "b")) {
        return "a and b are the operands of a reduction";
    }
    return {};
}

std::string expected_names(KernelKind kind) {
    return kind == KernelKind::reduction
               ? "expected a name other than i, a, b, a C++ keyword or one starting with '_'"
               : "expected a name other than i, a C++ keyword or one starting with '_'";
}

std::string dtype_names() {
    std::string names;
    for (const auto& traits : dtype_traits) {
        names += names.empty() ? "" : ", ";
        names += traits.name;
    }
    return names;
}

bool is_placeholder(std::string_view type) {
    return type.size() == 1 &&
           ((type[0] >= 'A' && type[0] <= 'Z') || (type[0] >= 'a' && type[0] <= 'z'));
}

ParamSpec parse_entry(std::string_view entry, const std::string& context) {
    const std::vector<std::string_view> words = split_words(entry);
    ParamSpec param;
    std::size_t first = 0;
    for (; first < words.size(); ++first) {
        const std::string_view word = words[first];
        bool* flag = word == raw_modifier         ? &param.raw
                     : word == non_const_modifier ? &param.non_const
                                                  : nullptr;
        if (flag == nullptr) {
            break;
        }
        if (*flag) {
            throw Error(context + "'" + std::string(word) + "' is given twice (expected " +
                        std::string(entry_grammar) + ")");
        }
        *flag = true;
    }
    const std::size_t count = words.size() - first;
    if (count == 0) {
        throw Error(context + "TYPE and NAME are missing (expected " + std::string(entry_grammar) +
                    ")");
    }
    if (count == 1) {
        throw Error(context + "only one word '" + std::string(words[first]) +
                    "' where TYPE NAME should be (expected " + std::string(entry_grammar) + ")");
    }
    if (count > 2) {
        std::string rest;
        for (std::size_t index = first; index < words.size(); ++index) {
            rest += rest.empty() ? "" : " ";
            rest += words[index];
        }
        throw Error(context + std::to_string(count) + " words '" + rest +
                    "' where TYPE NAME should be (expected " + std::string(entry_grammar) +
                    "; only raw and _non_const may come before TYPE, and entries are separated "
                    "by commas)");
    }
    const std::string_view type = words[first];
    const std::string_view name = words[first + 1];
    param.type_text = type;
    if (is_placeholder(type)) {
        param.placeholder = std::string(type);
    } else {
        try {
            param.dtype = dtype_from_name(type);
        } catch (const TypeError&) {
            throw TypeError(context + "'" + std::string(type) +
                            "' is not a dtype name or a type placeholder (expected one letter "
                            "such as T, or one of " +
                            dtype_names() + ")");
        }
    }
    if (!is_identifier(name)) {
        throw Error(context + "'" + std::string(name) +
                    "' is not a valid parameter name (expected a C identifier)");
    }
    param.name = name;
    return param;
}

void check_name_free(const ParamSpec& param, KernelKind kind, const std::string& context) {
    const std::string_view reason = reserved_reason(param.name, kind);
    if (!reason.empty()) {
        throw Error(context + "'" + param.name + "' is reserved: " + std::string(reason) + " (" +
                    expected_names(kind) + ")");
    }
}

// A parameter of one list, with where it stands, for messages that span both lists.
struct ListedParam {
    const ParamSpec* param;
    std::string_view which;
    std::size_t position;
};

}  // namespace

bool is_identifier(std::string_view text) noexcept {
    auto is_letter = [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    };
    auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
    return !text.empty() && is_letter(text.front()) &&
           std::ranges::all_of(text, [&](char c) { return is_letter(c) || is_digit(c); });
}

bool is_reserved_name(std::string_view name, KernelKind kind) noexcept {
    return !reserved_reason(name, kind).empty();
}

std::vector<ParamSpec> parse_params(std::string_view text, std::string_view kernel,
                                    std::string_view which, KernelKind kind) {
    std::vector<ParamSpec> params;
    if (trim(text).empty()) {
        return params;
    }
    std::size_t start = 0;
    for (std::size_t position = 1;; ++position) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string_view entry = trim(text.substr(start, comma - start));
        const std::string context = entry_context(kernel, kind, which, position, entry);
        if (entry.empty()) {
            throw Error(context + "the entry is empty (expected " + std::string(entry_grammar) +
                        " between commas)");
        }
        ParamSpec param = parse_entry(entry, context);
        check_name_free(param, kind, context);
        for (std::size_t index = 0; index < params.size(); ++index) {
            if (params[index].name == param.name) {
                throw Error(context + "'" + param.name + "' is already the name of " +
                            std::string(which) + " entry " + std::to_string(index + 1) +
                            " (expected unique parameter names)");
            }
        }
        params.push_back(std::move(param));
        if (comma == text.size()) {
            return params;
        }
        start = comma + 1;
    }
}

void check_kernel_params(std::string_view kernel, const std::vector<ParamSpec>& in,
                         const std::vector<ParamSpec>& out, KernelKind kind) {
    const std::string context = kernel_context(kernel, kind);
    if (!is_identifier(kernel) || is_keyword(kernel)) {
        throw Error(context + "'" + std::string(kernel) +
                    "' is not a valid kernel name (expected a C identifier that is not a C++ "
                    "keyword)");
    }
    std::vector<ListedParam> listed;
    for (std::size_t index = 0; index < in.size(); ++index) {
        listed.push_back({&in[index], "in_params", index + 1});
    }
    for (std::size_t index = 0; index < out.size(); ++index) {
        listed.push_back({&out[index], "out_params", index + 1});
    }
    for (std::size_t later = 0; later < listed.size(); ++later) {
        const ListedParam& current = listed[later];
        const std::string current_context = entry_context(
            kernel, kind, current.which, current.position, entry_text(*current.param));
        check_name_free(*current.param, kind, current_context);
        for (std::size_t earlier = 0; earlier < later; ++earlier) {
            if (listed[earlier].param->name == current.param->name) {
                throw Error(current_context + "'" + current.param->name +
                            "' is already the name of " + std::string(listed[earlier].which) +
                            " entry " + std::to_string(listed[earlier].position) +
                            " (expected unique parameter names)");
            }
        }
        for (const ListedParam& other : listed) {
            if (!other.param->dtype && other.param->placeholder == current.param->name) {
                throw Error(current_context + "'" + current.param->name +
                            "' is a type placeholder of this kernel (expected a parameter name "
                            "that no entry uses as its TYPE)");
            }
        }
    }
}

}  // namespace kiln::detail
