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

std::uint64_t parse_byte_size(const char* name, std::string_view text) {
    constexpr std::string_view suffixes = "KMGT";
    unsigned shift = 0;
    std::string_view digits = text;
    if (const auto at = suffixes.find(text.empty() ? '\0' : text.back());
        at != std::string_view::npos) {
        shift = 10U * static_cast<unsigned>(at + 1);
        digits.remove_suffix(1);
    }
    std::uint64_t count = 0;
    const auto* end = digits.data() + digits.size();
    auto [ptr, ec] = std::from_chars(digits.data(), end, count);
    if (ec != std::errc{} || ptr != end || digits.empty() ||
        count > (std::numeric_limits<std::uint64_t>::max() >> shift)) {
        throw Error(std::string(name) + "='" + std::string(text) +
                    "' is not a valid size: expected a byte count, optionally with a suffix K, "
                    "M, G or T such as 512M");
    }
    return count << shift;
}

}  // namespace kiln::detail::env
