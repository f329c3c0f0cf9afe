// Reading kiln's environment variables, with errors that name the variable.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kiln::detail::env {

// The variable's value, or nothing when it is unset or empty.
[[nodiscard]] std::optional<std::string> get(const char* name);

// A non-negative integer. Throws Error naming the variable when the text is not one.
[[nodiscard]] int parse_index(const char* name, std::string_view text);

}  // namespace kiln::detail::env
