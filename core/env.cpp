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

std::size_t parse_memory_limit(const char* name, std::string_view text, std::size_t total) {
    auto fail = [&](const char* expected) {
        return Error(std::string(name) + "='" + std::string(text) +
                     "' is not a valid memory limit: expected " + expected);
    };
    const auto* end = text.data() + text.size();
    if (text.ends_with('%')) {
        double percent = 0.0;
        auto [ptr, ec] = std::from_chars(text.data(), end - 1, percent);
        if (ec != std::errc{} || ptr != end - 1 || !(percent >= 0.0)) {
            throw fail("a byte count or a percentage such as 50%");
        }
        if (percent > 100.0) {
            throw fail("a percentage of at most 100%");
        }
        return static_cast<std::size_t>(static_cast<double>(total) * percent / 100.0);
    }
    std::size_t bytes = 0;
    auto [ptr, ec] = std::from_chars(text.data(), end, bytes);
    if (ec != std::errc{} || ptr != end) {
        throw fail("a byte count or a percentage such as 50%");
    }
    return bytes;
}

}  // namespace kiln::detail::env
