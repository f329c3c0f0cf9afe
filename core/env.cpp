#include "env.hpp"

#include <kiln/error.hpp>

#include <charconv>
#include <cstdlib>
#include <limits>

namespace kiln::detail::env {

std::optional<std::string> get(const char* name) {
    const char* value = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read-only use
    if (value == nullptr || *value == '\0') {
        return std::nullopt;
    }
    return std::string(value);
}

int parse_index(const char* name, std::string_view text) {
    int value = 0;
    const auto* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr != end || value < 0) {
        throw Error(std::string(name) + "='" + std::string(text) +
                    "' is not a valid value: expected a non-negative integer");
    }
    return value;
}

}  // namespace kiln::detail::env
