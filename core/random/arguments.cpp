#include "arguments.hpp"

#include <kiln/error.hpp>

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace kiln::detail {

namespace {

// The shortest text that reads back as `value` ("0.1", "1e+300", "inf").
std::string shortest(double value) {
    std::array<char, 32> text{};
    const auto result = std::to_chars(text.data(), text.data() + text.size(), value);
    return {text.data(), result.ptr};
}

std::string prefix(const char* function) {
    return std::string("kiln: ") + function + ": ";
}

}  // namespace

void check_random_real_dtype(DType dtype, const char* function) {
    if (dtype != DType::float16 && dtype != DType::float32 && dtype != DType::float64) {
        throw TypeError(prefix(function) + "dtype " + std::string(name(dtype)) +
                        " is not supported; expected float16, float32 or float64");
    }
}

void check_random_integer_dtype(DType dtype, const char* function) {
    if (kind(dtype) != 'i' && kind(dtype) != 'u') {
        throw TypeError(prefix(function) + "dtype " + std::string(name(dtype)) +
                        " is not supported; expected a signed or unsigned integer dtype");
    }
}

void check_uniform_range(double low, double high, const char* function) {
    const std::string got = " (got low=" + shortest(low) + ", high=" + shortest(high) + ")";
    if (!std::isfinite(low) || !std::isfinite(high)) {
        throw Error(prefix(function) + "low and high must be finite" + got);
    }
    if (!(low < high)) {
        throw Error(prefix(function) + "low must be less than high" + got);
    }
    if (!std::isfinite(high - low)) {
        throw Error(prefix(function) + "high - low must be finite in float64" + got);
    }
}

void check_normal_parameters(double mean, double stddev, const char* function) {
    if (!std::isfinite(mean) || !std::isfinite(stddev)) {
        throw Error(prefix(function) + "mean and stddev must be finite (got mean=" +
                    shortest(mean) + ", stddev=" + shortest(stddev) + ")");
    }
    if (stddev < 0.0) {
        throw Error(prefix(function) + "stddev must be non-negative (got " + shortest(stddev) +
                    ")");
    }
}

void check_integer_range(std::int64_t low, std::int64_t high, DType dtype, const char* function) {
    if (low >= high) {
        throw Error(prefix(function) + "low must be less than high (got low=" +
                    std::to_string(low) + ", high=" + std::to_string(high) + ")");
    }
    // The dtype's smallest and largest values, from its size and signedness.
    const auto bits = static_cast<int>(itemsize(dtype) * 8);
    const bool is_signed = kind(dtype) == 'i';
    const std::int64_t smallest =
        is_signed ? std::numeric_limits<std::int64_t>::min() >> (64 - bits) : 0;
    const std::uint64_t largest =
        std::numeric_limits<std::uint64_t>::max() >> (64 - bits + (is_signed ? 1 : 0));
    if (low < smallest) {
        throw TypeError(prefix(function) + "low=" + std::to_string(low) + " is out of bounds for " +
                        std::string(name(dtype)) + "; low must be at least " +
                        std::to_string(smallest));
    }
    if (std::cmp_greater(high - 1, largest)) {
        throw TypeError(prefix(function) + "high=" + std::to_string(high) +
                        " is out of bounds for " + std::string(name(dtype)) +
                        "; high must be at most " + std::to_string(largest + 1));
    }
}

int significand_bits(DType dtype) {
    switch (dtype) {
        case DType::float16:
            return 11;
        case DType::float32:
            return 24;
        default:
            return 53;
    }
}

}  // namespace kiln::detail
