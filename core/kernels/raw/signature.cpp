#include "signature.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace kiln::detail {

namespace {

bool identifier_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Source without comments, so that commented-out kernels and parameters do not count.
std::string strip_comments(std::string_view source) {
    std::string out;
    out.reserve(source.size());
    for (std::size_t i = 0; i < source.size(); ++i) {
        if (source.substr(i, 2) == "//") {
            i = source.find('\n', i);
            if (i == std::string_view::npos) {
                break;
            }
            out += '\n';
        } else if (source.substr(i, 2) == "/*") {
            i = source.find("*/", i + 2);
            if (i == std::string_view::npos) {
                break;
            }
            ++i;
            out += ' ';
        } else {
            out += source[i];
        }
    }
    return out;
}

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) {
        return {};
    }
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// Words of a declaration, with '*' and '&' as words of their own.
std::vector<std::string> words(std::string_view text) {
    std::vector<std::string> out;
    std::string word;
    auto flush = [&] {
        if (!word.empty()) {
            out.push_back(std::move(word));
            word.clear();
        }
    };
    int angle = 0;
    for (char c : text) {
        if (c == '<') {
            ++angle;
        } else if (c == '>') {
            --angle;
        }
        if (angle == 0 && (c == '*' || c == '&')) {
            flush();
            out.emplace_back(1, c);
        } else if (angle == 0 && std::isspace(static_cast<unsigned char>(c)) != 0) {
            flush();
        } else {
            word += c;
        }
    }
    flush();
    return out;
}

std::optional<DType> dtype_of_type_name(const std::string& type) {
    static const std::array<std::pair<std::string_view, DType>, 30> names{{
        {"bool", DType::bool_},
        {"char", DType::int8},
        {"signed char", DType::int8},
        {"int8_t", DType::int8},
        {"unsigned char", DType::uint8},
        {"uint8_t", DType::uint8},
        {"short", DType::int16},
        {"int16_t", DType::int16},
        {"unsigned short", DType::uint16},
        {"uint16_t", DType::uint16},
        {"int", DType::int32},
        {"int32_t", DType::int32},
        {"unsigned", DType::uint32},
        {"unsigned int", DType::uint32},
        {"uint32_t", DType::uint32},
        {"long long", DType::int64},
        {"long long int", DType::int64},
        {"int64_t", DType::int64},
        {"ptrdiff_t", DType::int64},
        {"unsigned long long", DType::uint64},
        {"unsigned long long int", DType::uint64},
        {"uint64_t", DType::uint64},
        {"size_t", DType::uint64},
        {"float16", DType::float16},
        {"__half", DType::float16},
        {"half", DType::float16},
        {"float", DType::float32},
        {"double", DType::float64},
        {"complex<float>", DType::complex64},
        {"complex<double>", DType::complex128},
    }};
    for (const auto& [spelling, dtype] : names) {
        if (type == spelling) {
            return dtype;
        }
    }
    return std::nullopt;
}

KernelParameter parse_parameter(std::string_view text) {
    KernelParameter p;
    p.text = std::string(text);
    auto parts = words(text);
    // The last word is the name when it follows a type and is no type keyword itself.
    static constexpr std::array<std::string_view, 10> keywords{
        "int", "long", "short", "char", "unsigned", "signed", "float", "double", "bool", "void"};
    const auto is_keyword = [&](const std::string& word) {
        return std::find(keywords.begin(), keywords.end(), word) != keywords.end();
    };
    if (parts.size() >= 2 && identifier_char(parts.back().front()) &&
        std::isdigit(static_cast<unsigned char>(parts.back().front())) == 0 &&
        !is_keyword(parts.back())) {
        p.name = parts.back();
        parts.pop_back();
    }
    std::string type;
    for (const auto& part : parts) {
        if (part == "*" || part == "&") {
            p.pointer = true;
        } else if (part != "const" && part != "volatile" && part != "__restrict__" &&
                   part != "__restrict" && part != "restrict" && part != "struct") {
            type += (type.empty() ? "" : " ") + part;
        }
    }
    const std::optional<DType> dtype = dtype_of_type_name(type);
    if (p.pointer) {
        p.pointee = dtype;
    } else {
        p.scalar = dtype;
    }
    return p;
}

}  // namespace

std::optional<std::vector<KernelParameter>> kernel_signature(std::string_view source,
                                                             std::string_view name) {
    const std::string code = strip_comments(source);
    std::optional<std::size_t> found;
    for (std::size_t at = code.find(name); at != std::string::npos; at = code.find(name, at + 1)) {
        const bool whole =
            (at == 0 || !identifier_char(code[at - 1])) &&
            (at + name.size() == code.size() || !identifier_char(code[at + name.size()]));
        if (!whole) {
            continue;
        }
        const std::size_t open = code.find_first_not_of(" \t\r\n", at + name.size());
        const std::size_t head = code.rfind(';', at) == std::string::npos ? 0 : code.rfind(';', at);
        const std::size_t brace = code.rfind('}', at);
        const std::size_t start = brace == std::string::npos ? head : std::max(head, brace);
        if (open == std::string::npos || code[open] != '(' ||
            code.substr(start, at - start).find("__global__") == std::string::npos) {
            continue;
        }
        if (found || code.substr(start, at - start).find("template") != std::string::npos) {
            return std::nullopt;  // overloaded, or a template: not checked
        }
        found = open;
    }
    if (!found) {
        return std::nullopt;
    }
    return parameter_list(std::string_view(code).substr(*found));
}

std::optional<std::vector<KernelParameter>> parameter_list(std::string_view list) {
    if (list.empty() || list.front() != '(') {
        return std::nullopt;
    }
    std::vector<KernelParameter> parameters;
    int depth = 0;
    std::size_t begin = 1;
    for (std::size_t i = begin; i < list.size(); ++i) {
        const char c = list[i];
        if (c == '(' || c == '<' || c == '[') {
            ++depth;
        } else if ((c == ')' || c == '>' || c == ']') && depth > 0) {
            --depth;
        } else if ((c == ',' && depth == 0) || (c == ')' && depth == 0)) {
            const auto piece = trim(list.substr(begin, i - begin));
            if (!piece.empty() && piece != "void") {  // "f()" and "f(void)" take nothing
                parameters.push_back(parse_parameter(piece));
            }
            begin = i + 1;
            if (c == ')') {
                return parameters;
            }
        }
    }
    return std::nullopt;
}

}  // namespace kiln::detail
