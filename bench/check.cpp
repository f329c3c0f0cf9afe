#include "check.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <string>

namespace kiln::bench {

namespace {

std::string format(const char* pattern, double a, double b) {
    std::array<char, 160> text{};
    (void)std::snprintf(text.data(), text.size(), pattern, a, b);
    return text.data();
}

Check size_mismatch(std::size_t got, std::size_t want) {
    Check check;
    check.status = "FAIL";
    check.detail =
        "kiln gave " + std::to_string(got) + " values, the reference " + std::to_string(want);
    return check;
}

}  // namespace

Check check_relative(std::span<const double> got, std::span<const double> want, double tolerance) {
    if (got.size() != want.size()) {
        return size_mismatch(got.size(), want.size());
    }
    Check check;
    check.tolerance = tolerance;
    double error = 0;
    double norm = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(got[i]) || std::isnan(want[i])) {
            check.status = "FAIL";
            check.detail = "NaN at element " + std::to_string(i) + " of " +
                           (std::isnan(got[i]) ? "kiln's result" : "the reference");
            return check;
        }
        const double d = got[i] - want[i];
        error += d * d;
        norm += want[i] * want[i];
    }
    // A zero reference is compared absolutely.
    check.error = norm > 0 ? std::sqrt(error / norm) : std::sqrt(error);
    const bool ok = check.error <= tolerance;
    check.status = ok ? "ok" : "FAIL";
    if (!ok) {
        check.detail = format("relative error %.3g exceeds %.0e", check.error, tolerance);
    }
    return check;
}

Check check_exact(std::span<const std::int64_t> got, std::span<const std::int64_t> want) {
    if (got.size() != want.size()) {
        return size_mismatch(got.size(), want.size());
    }
    Check check;
    check.tolerance = 0;
    std::size_t mismatches = 0;
    std::size_t first = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (got[i] != want[i] && mismatches++ == 0) {
            first = i;
        }
    }
    check.error = static_cast<double>(mismatches);
    check.status = mismatches == 0 ? "ok" : "FAIL";
    if (mismatches > 0) {
        check.detail = std::to_string(mismatches) + " values differ; the first at " +
                       std::to_string(first) + ": " + std::to_string(got[first]) +
                       " != " + std::to_string(want[first]);
    }
    return check;
}

}  // namespace kiln::bench
