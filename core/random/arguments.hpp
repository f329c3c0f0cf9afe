// What kiln::random's device functions and their host twins share: the checks of their arguments
// (each throws naming `function` and the argument at fault), and how many bits make a value.
#pragma once

#include <kiln/dtype.hpp>

#include <cstdint>

namespace kiln::detail {

// TypeError unless dtype is float16, float32 or float64.
void check_random_real_dtype(DType dtype, const char* function);
// TypeError unless dtype is a signed or unsigned integer dtype.
void check_random_integer_dtype(DType dtype, const char* function);

// Error unless low and high are finite, low < high and high - low is finite.
void check_uniform_range(double low, double high, const char* function);
// Error unless mean and stddev are finite and stddev >= 0.
void check_normal_parameters(double mean, double stddev, const char* function);
// Error unless low < high; TypeError unless every integer in [low, high) fits dtype.
void check_integer_range(std::int64_t low, std::int64_t high, DType dtype, const char* function);

// The significand bits of a floating dtype: how many random bits make one uniform value.
[[nodiscard]] int significand_bits(DType dtype);

}  // namespace kiln::detail
