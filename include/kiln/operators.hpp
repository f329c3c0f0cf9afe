/// @file
/// Operators on ndarrays and C++ scalars, as NumPy's: each is its ufunc (include/kiln/ufuncs.hpp),
/// so broadcasting and NEP 50 promotion apply (`a * 2.0` keeps a float32 array float32). `/` is
/// true division; comparisons return bool arrays. Compound assignment writes into the left array,
/// whose dtype must hold the result under 'same_kind' casting (`int_array += 1.5` is a TypeError).
#pragma once

#include <kiln/ufuncs.hpp>

namespace kiln {

/// x + y: add(x, y).
ndarray operator+(const ndarray& x, const ndarray& y);
/// x + y for a C++ scalar y: add(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator+(const ndarray& x, S y) {
    return add(x, Scalar(y));
}
/// x + y for a C++ scalar x: add(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator+(S x, const ndarray& y) {
    return add(Scalar(x), y);
}
/// x - y: subtract(x, y).
ndarray operator-(const ndarray& x, const ndarray& y);
/// x - y for a C++ scalar y: subtract(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator-(const ndarray& x, S y) {
    return subtract(x, Scalar(y));
}
/// x - y for a C++ scalar x: subtract(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator-(S x, const ndarray& y) {
    return subtract(Scalar(x), y);
}
/// x * y: multiply(x, y).
ndarray operator*(const ndarray& x, const ndarray& y);
/// x * y for a C++ scalar y: multiply(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator*(const ndarray& x, S y) {
    return multiply(x, Scalar(y));
}
/// x * y for a C++ scalar x: multiply(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator*(S x, const ndarray& y) {
    return multiply(Scalar(x), y);
}
/// x / y: true_divide(x, y).
ndarray operator/(const ndarray& x, const ndarray& y);
/// x / y for a C++ scalar y: true_divide(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator/(const ndarray& x, S y) {
    return true_divide(x, Scalar(y));
}
/// x / y for a C++ scalar x: true_divide(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator/(S x, const ndarray& y) {
    return true_divide(Scalar(x), y);
}
/// x % y: remainder(x, y).
ndarray operator%(const ndarray& x, const ndarray& y);
/// x % y for a C++ scalar y: remainder(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator%(const ndarray& x, S y) {
    return remainder(x, Scalar(y));
}
/// x % y for a C++ scalar x: remainder(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator%(S x, const ndarray& y) {
    return remainder(Scalar(x), y);
}
/// x & y: bitwise_and(x, y).
ndarray operator&(const ndarray& x, const ndarray& y);
/// x & y for a C++ scalar y: bitwise_and(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator&(const ndarray& x, S y) {
    return bitwise_and(x, Scalar(y));
}
/// x & y for a C++ scalar x: bitwise_and(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator&(S x, const ndarray& y) {
    return bitwise_and(Scalar(x), y);
}
/// x | y: bitwise_or(x, y).
ndarray operator|(const ndarray& x, const ndarray& y);
/// x | y for a C++ scalar y: bitwise_or(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator|(const ndarray& x, S y) {
    return bitwise_or(x, Scalar(y));
}
/// x | y for a C++ scalar x: bitwise_or(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator|(S x, const ndarray& y) {
    return bitwise_or(Scalar(x), y);
}
/// x ^ y: bitwise_xor(x, y).
ndarray operator^(const ndarray& x, const ndarray& y);
/// x ^ y for a C++ scalar y: bitwise_xor(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator^(const ndarray& x, S y) {
    return bitwise_xor(x, Scalar(y));
}
/// x ^ y for a C++ scalar x: bitwise_xor(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator^(S x, const ndarray& y) {
    return bitwise_xor(Scalar(x), y);
}
/// x << y: left_shift(x, y).
ndarray operator<<(const ndarray& x, const ndarray& y);
/// x << y for a C++ scalar y: left_shift(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator<<(const ndarray& x, S y) {
    return left_shift(x, Scalar(y));
}
/// x << y for a C++ scalar x: left_shift(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator<<(S x, const ndarray& y) {
    return left_shift(Scalar(x), y);
}
/// x >> y: right_shift(x, y).
ndarray operator>>(const ndarray& x, const ndarray& y);
/// x >> y for a C++ scalar y: right_shift(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator>>(const ndarray& x, S y) {
    return right_shift(x, Scalar(y));
}
/// x >> y for a C++ scalar x: right_shift(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator>>(S x, const ndarray& y) {
    return right_shift(Scalar(x), y);
}
/// x == y: equal(x, y).
ndarray operator==(const ndarray& x, const ndarray& y);
/// x == y for a C++ scalar y: equal(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator==(const ndarray& x, S y) {
    return equal(x, Scalar(y));
}
/// x == y for a C++ scalar x: equal(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator==(S x, const ndarray& y) {
    return equal(Scalar(x), y);
}
/// x != y: not_equal(x, y).
ndarray operator!=(const ndarray& x, const ndarray& y);
/// x != y for a C++ scalar y: not_equal(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator!=(const ndarray& x, S y) {
    return not_equal(x, Scalar(y));
}
/// x != y for a C++ scalar x: not_equal(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator!=(S x, const ndarray& y) {
    return not_equal(Scalar(x), y);
}
/// x < y: less(x, y).
ndarray operator<(const ndarray& x, const ndarray& y);
/// x < y for a C++ scalar y: less(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator<(const ndarray& x, S y) {
    return less(x, Scalar(y));
}
/// x < y for a C++ scalar x: less(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator<(S x, const ndarray& y) {
    return less(Scalar(x), y);
}
/// x <= y: less_equal(x, y).
ndarray operator<=(const ndarray& x, const ndarray& y);
/// x <= y for a C++ scalar y: less_equal(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator<=(const ndarray& x, S y) {
    return less_equal(x, Scalar(y));
}
/// x <= y for a C++ scalar x: less_equal(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator<=(S x, const ndarray& y) {
    return less_equal(Scalar(x), y);
}
/// x > y: greater(x, y).
ndarray operator>(const ndarray& x, const ndarray& y);
/// x > y for a C++ scalar y: greater(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator>(const ndarray& x, S y) {
    return greater(x, Scalar(y));
}
/// x > y for a C++ scalar x: greater(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator>(S x, const ndarray& y) {
    return greater(Scalar(x), y);
}
/// x >= y: greater_equal(x, y).
ndarray operator>=(const ndarray& x, const ndarray& y);
/// x >= y for a C++ scalar y: greater_equal(x, Scalar(y)).
template <class S>
requires has_dtype<S> ndarray operator>=(const ndarray& x, S y) {
    return greater_equal(x, Scalar(y));
}
/// x >= y for a C++ scalar x: greater_equal(Scalar(x), y).
template <class S>
requires has_dtype<S> ndarray operator>=(S x, const ndarray& y) {
    return greater_equal(Scalar(x), y);
}
/// -x: negative(x).
ndarray operator-(const ndarray& x);
/// +x: positive(x).
ndarray operator+(const ndarray& x);
/// ~x: invert(x).
ndarray operator~(const ndarray& x);

/// x += y: add(x, y, {.out = x}); returns x.
ndarray& operator+=(ndarray& x, const Argument& y);
/// x -= y: subtract(x, y, {.out = x}); returns x.
ndarray& operator-=(ndarray& x, const Argument& y);
/// x *= y: multiply(x, y, {.out = x}); returns x.
ndarray& operator*=(ndarray& x, const Argument& y);
/// x /= y: true_divide(x, y, {.out = x}); returns x.
ndarray& operator/=(ndarray& x, const Argument& y);
/// x %= y: remainder(x, y, {.out = x}); returns x.
ndarray& operator%=(ndarray& x, const Argument& y);
/// x &= y: bitwise_and(x, y, {.out = x}); returns x.
ndarray& operator&=(ndarray& x, const Argument& y);
/// x |= y: bitwise_or(x, y, {.out = x}); returns x.
ndarray& operator|=(ndarray& x, const Argument& y);
/// x ^= y: bitwise_xor(x, y, {.out = x}); returns x.
ndarray& operator^=(ndarray& x, const Argument& y);
/// x <<= y: left_shift(x, y, {.out = x}); returns x.
ndarray& operator<<=(ndarray& x, const Argument& y);
/// x >>= y: right_shift(x, y, {.out = x}); returns x.
ndarray& operator>>=(ndarray& x, const Argument& y);

}  // namespace kiln
