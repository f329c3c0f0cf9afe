#include "cuda_source.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace kiln::detail::host {

namespace {

enum class TokenKind : unsigned char { identifier, literal, punctuation };

struct Token {
    TokenKind kind;
    std::string_view text;
};

bool identifier_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}

bool identifier_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// The end of the quoted literal that starts at `at` (its quote), escapes skipped.
std::size_t end_of_quoted(std::string_view s, std::size_t at) {
    const char quote = s[at];
    for (std::size_t i = at + 1; i < s.size(); ++i) {
        if (s[i] == '\\') {
            ++i;
        } else if (s[i] == quote || s[i] == '\n') {
            return i + 1;
        }
    }
    return s.size();
}

// The end of the raw string literal whose R is at `at`.
std::size_t end_of_raw(std::string_view s, std::size_t at) {
    const std::size_t open = s.find('(', at);
    if (open == std::string_view::npos) {
        return s.size();
    }
    const std::string close = ")" + std::string(s.substr(at + 2, open - at - 2)) + "\"";
    const std::size_t end = s.find(close, open);
    return end == std::string_view::npos ? s.size() : end + close.size();
}

// C++ tokens, without comments and preprocessor lines; literals are single tokens.
std::vector<Token> tokens_of(std::string_view s) {
    std::vector<Token> tokens;
    bool line_start = true;
    std::size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (c == '\n') {
            line_start = true;
            ++i;
        } else if (std::isspace(static_cast<unsigned char>(c)) != 0) {
            ++i;
        } else if (s.substr(i, 2) == "//") {
            i = std::min(s.find('\n', i), s.size());
        } else if (s.substr(i, 2) == "/*") {
            const std::size_t end = s.find("*/", i + 2);
            i = end == std::string_view::npos ? s.size() : end + 2;
        } else if (c == '#' && line_start) {
            while (i < s.size() && s[i] != '\n') {
                i += s[i] == '\\' ? 2 : 1;
            }
        } else if (c == 'R' && s.substr(i, 2) == "R\"") {
            const std::size_t end = end_of_raw(s, i);
            tokens.push_back({TokenKind::literal, s.substr(i, end - i)});
            i = end;
            line_start = false;
        } else if (c == '"' || c == '\'') {
            const std::size_t end = end_of_quoted(s, i);
            tokens.push_back({TokenKind::literal, s.substr(i, end - i)});
            i = end;
            line_start = false;
        } else if (identifier_start(c) || std::isdigit(static_cast<unsigned char>(c)) != 0) {
            // Numbers may hold digit separators ('), which must not open a character literal.
            const bool number = std::isdigit(static_cast<unsigned char>(c)) != 0;
            std::size_t end = i + 1;
            while (end < s.size() &&
                   (identifier_char(s[end]) || (number && (s[end] == '\'' || s[end] == '.')))) {
                ++end;
            }
            tokens.push_back(
                {number ? TokenKind::literal : TokenKind::identifier, s.substr(i, end - i)});
            i = end;
            line_start = false;
        } else {
            const std::size_t length = s.substr(i, 2) == "::" ? 2 : 1;
            tokens.push_back({TokenKind::punctuation, s.substr(i, length)});
            i += length;
            line_start = false;
        }
    }
    return tokens;
}

// A brace's scope: the namespaces it opens (none for an extern "C" block, whose declarations
// stay in the enclosing namespace), or a class or function body.
struct Scope {
    std::vector<std::string_view> namespaces;
    bool declarations = true;  // a namespace or extern "C" block, where kernels are declared
};

class Scanner {
public:
    explicit Scanner(std::string_view source) : tokens_(tokens_of(source)) {}

    CudaSourceScan scan() {
        for (std::size_t i = 0; i < tokens_.size(); ++i) {
            const std::string_view text = tokens_[i].text;
            if (is(i, "namespace")) {
                i = open_namespace(i);
            } else if (is(i, "extern") && i + 2 < tokens_.size() &&
                       tokens_[i + 1].kind == TokenKind::literal && is(i + 2, "{")) {
                scopes_.push_back({{}, true});
                i += 2;
            } else if (is(i, "extern") && is(i + 1, "__shared__")) {
                dynamic_shared(i);
            } else if (text == "{") {
                scopes_.push_back({{}, false});
            } else if (text == "}") {
                if (!scopes_.empty()) {
                    scopes_.pop_back();
                }
            } else if (text == "__global__") {
                kernel(i);
            }
        }
        CudaSourceScan scan;
        for (const auto& [name, found] : kernels_) {
            if (found.size() == 1) {
                scan.kernels.push_back(found.begin()->first);
            }
        }
        scan.dynamic_shared.assign(shared_.begin(), shared_.end());
        return scan;
    }

private:
    [[nodiscard]] bool is(std::size_t i, std::string_view text) const {
        return i < tokens_.size() && tokens_[i].kind != TokenKind::literal &&
               tokens_[i].text == text;
    }

    // The index of the token that closes the bracket opened at `i`.
    [[nodiscard]] std::size_t matching(std::size_t i) const {
        const std::string_view open = tokens_[i].text;
        std::string_view close = "}";
        if (open == "(") {
            close = ")";
        } else if (open == "[") {
            close = "]";
        }
        int depth = 0;
        for (std::size_t j = i; j < tokens_.size(); ++j) {
            depth += is(j, open) ? 1 : is(j, close) ? -1 : 0;
            if (depth == 0) {
                return j;
            }
        }
        return tokens_.size();
    }

    // `namespace a::b {` opens a and b; an alias (`namespace x = y;`) opens nothing.
    std::size_t open_namespace(std::size_t i) {
        Scope scope;
        std::size_t j = i + 1;
        for (; j < tokens_.size() && !is(j, "{") && !is(j, ";") && !is(j, "="); ++j) {
            if (tokens_[j].kind == TokenKind::identifier && tokens_[j].text != "inline") {
                scope.namespaces.push_back(tokens_[j].text);
            }
        }
        if (!is(j, "{")) {
            return j;
        }
        if (scope.namespaces.empty()) {
            scope.namespaces.emplace_back();  // anonymous
        }
        scopes_.push_back(scope);
        return j;
    }

    [[nodiscard]] bool at_namespace_scope() const {
        return std::all_of(scopes_.begin(), scopes_.end(),
                           [](const Scope& scope) { return scope.declarations; });
    }

    [[nodiscard]] std::vector<std::string_view> namespace_path() const {
        std::vector<std::string_view> path;
        for (const auto& scope : scopes_) {
            if (scope.declarations) {
                path.insert(path.end(), scope.namespaces.begin(), scope.namespaces.end());
            }
        }
        return path;
    }

    // A __global__ function: exported when it is no template, by its name qualified from the
    // global namespace (anonymous namespaces need no qualification).
    void kernel(std::size_t at) {
        if (!at_namespace_scope()) {
            return;
        }
        for (std::size_t j = at; j-- > 0 && !is(j, ";") && !is(j, "{") && !is(j, "}");) {
            if (is(j, "template")) {
                return;
            }
        }
        std::size_t j = at + 1;
        std::string_view name;
        while (j < tokens_.size() && !is(j, "(") && !is(j, ";") && !is(j, "{")) {
            if ((is(j, "__launch_bounds__") || is(j, "__attribute__")) && is(j + 1, "(")) {
                j = matching(j + 1) + 1;
                continue;
            }
            if (is(j, "[")) {
                j = matching(j) + 1;
                continue;
            }
            if (tokens_[j].kind == TokenKind::identifier) {
                name = tokens_[j].text;
            }
            ++j;
        }
        if (name.empty() || !is(j, "(")) {
            return;
        }
        std::string qualified;
        for (const auto part : namespace_path()) {
            if (!part.empty()) {
                qualified.append(part).append("::");
            }
        }
        qualified.append(name);
        std::string parameters;
        for (std::size_t k = j, end = matching(j); k <= end && k < tokens_.size(); ++k) {
            parameters.append(tokens_[k].text).append(" ");
        }
        kernels_[std::string(name)].emplace(qualified, parameters);
    }

    // `extern __shared__ T name[];`: the array's assembler name, in its enclosing namespace.
    void dynamic_shared(std::size_t at) {
        std::string_view name;
        for (std::size_t j = at + 2; j < tokens_.size() && !is(j, ";"); ++j) {
            if (is(j, "[") && !name.empty()) {
                break;
            }
            if (is(j, "__attribute__") || is(j, "__align__") || is(j, "alignas")) {
                j = is(j + 1, "(") ? matching(j + 1) : j;
                continue;
            }
            if (tokens_[j].kind == TokenKind::identifier) {
                name = tokens_[j].text;
            }
        }
        if (name.empty()) {
            return;
        }
        const auto path = namespace_path();
        if (path.empty()) {
            shared_.emplace(name);
            return;
        }
        std::string mangled = "_ZN";
        for (const auto part : path) {
            mangled += part.empty() ? std::string("12_GLOBAL__N_1")
                                    : std::to_string(part.size()) + std::string(part);
        }
        shared_.insert(mangled + std::to_string(name.size()) + std::string(name) + "E");
    }

    std::vector<Token> tokens_;
    std::vector<Scope> scopes_;
    // unqualified name -> (qualified name, parameters) of each declaration: one when not overloaded
    std::map<std::string, std::set<std::pair<std::string, std::string>>> kernels_;
    std::set<std::string> shared_;
};

}  // namespace

CudaSourceScan scan_cuda_source(std::string_view source) {
    return Scanner(source).scan();
}

std::string expression_symbol(std::size_t index) {
    return "kiln_expression_" + std::to_string(index);
}

std::string cuda_source_epilogue(const CudaSourceScan& scan,
                                 const std::vector<std::string>& name_expressions,
                                 std::size_t shared_bytes) {
    std::string text = "\n#line 1 \"kiln-host-exports\"\n";
    for (const auto& kernel : scan.kernels) {
        text.append("KILN_CUDA_EXPORT(")
            .append(kernel.substr(kernel.rfind(':') + 1))
            .append(", ::")
            .append(kernel)
            .append(")\n");
    }
    for (std::size_t i = 0; i < name_expressions.size(); ++i) {
        text += "KILN_CUDA_EXPORT(" + expression_symbol(i) + ", " + name_expressions[i] + ")\n";
    }
    if (!scan.dynamic_shared.empty()) {
        const std::string size = std::to_string(shared_bytes);
        text += R"(__asm__(".pushsection .tbss,\"awT\",@nobits\n.p2align 6\n)";
        for (const auto& name : scan.dynamic_shared) {
            for (const char* directive : {".globl ", ".hidden "}) {
                text.append(directive).append(name).append("\\n");
            }
            text.append(".type ").append(name).append(", @object\\n");
            text.append(".size ").append(name).append(", ").append(size).append("\\n");
            text.append(name).append(":\\n");
        }
        text.append(".zero ").append(size).append(R"(\n.popsection");)").append("\n");
    }
    return text;
}

}  // namespace kiln::detail::host
