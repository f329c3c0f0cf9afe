#include "scaling.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

namespace kiln::bench {

namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    while (true) {
        const auto at = text.find(separator);
        parts.push_back(text.substr(0, at));
        if (at == std::string_view::npos) {
            return parts;
        }
        text.remove_prefix(at + 1);
    }
}

bool all_digits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::int64_t to_integer(std::string_view digits) {
    std::int64_t value = 0;
    (void)std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return value;
}

// "1e8" or "2.5e5" as a count; -1 for anything else.
std::int64_t exponent_count(std::string_view text) {
    const auto e = text.find('e');
    if (e == std::string_view::npos || !all_digits(text.substr(e + 1))) {
        return -1;
    }
    const std::string_view mantissa = text.substr(0, e);
    const auto point = mantissa.find('.');
    const std::string_view whole = mantissa.substr(0, point);
    const std::string_view fraction =
        point == std::string_view::npos ? std::string_view{} : mantissa.substr(point + 1);
    const auto exponent =
        to_integer(text.substr(e + 1)) - static_cast<std::int64_t>(fraction.size());
    if (!all_digits(whole) || (point != std::string_view::npos && !all_digits(fraction)) ||
        exponent < 0 || exponent > 18) {
        return -1;
    }
    std::int64_t count = to_integer(whole);
    for (const char digit : fraction) {
        count = count * 10 + (digit - '0');
    }
    for (std::int64_t i = 0; i < exponent; ++i) {
        count *= 10;
    }
    return count;
}

std::string join(const std::vector<std::string>& parts, char separator) {
    std::string text;
    for (const auto& part : parts) {
        text += (text.empty() ? "" : std::string(1, separator)) + part;
    }
    return text;
}

}  // namespace

std::int64_t scale_count(std::int64_t n, double scale) {
    return std::max<std::int64_t>(1, std::llround(static_cast<double>(n) * scale));
}

std::int64_t scale_side(std::int64_t n, int dims, double scale) {
    const double factor = std::pow(scale, 1.0 / dims);
    return std::max<std::int64_t>(1, std::llround(static_cast<double>(n) * factor));
}

std::string count_text(std::int64_t n) {
    int zeros = 0;
    while (n != 0 && n % 10 == 0) {
        n /= 10;
        ++zeros;
    }
    std::string digits = std::to_string(n);
    if (zeros == 0) {
        return digits;
    }
    const std::string fraction = digits.substr(1);
    return digits.substr(0, 1) + (fraction.empty() ? "" : "." + fraction) + "e" +
           std::to_string(zeros + static_cast<int>(fraction.size()));
}

std::string name_at_scale(std::string_view name, double scale) {
    bool count_scaled = false;
    std::vector<std::string> parts;
    for (const auto part : split(name, '_')) {
        const auto factors = split(part, 'x');
        const bool sides =
            factors.size() > 1 && std::all_of(factors.begin(), factors.end(), all_digits);
        std::vector<std::string> scaled;
        for (const auto factor : factors) {
            const std::int64_t count = exponent_count(factor);
            if (sides) {
                scaled.push_back(std::to_string(
                    scale_side(to_integer(factor), static_cast<int>(factors.size()), scale)));
            } else if (count > 0 && !count_scaled) {
                scaled.push_back(count_text(scale_count(count, scale)));
                count_scaled = true;
            } else {
                scaled.emplace_back(factor);
            }
        }
        parts.push_back(join(scaled, 'x'));
    }
    return join(parts, '_');
}

}  // namespace kiln::bench
