// Operators on ndarrays and C++ scalars, as NumPy's: each is its ufunc (include/kiln/ufuncs.hpp),
// so broadcasting and NEP 50 promotion apply (`a * 2.0` keeps a float32 array float32). `/` is
// true division; comparisons return bool arrays. Compound assignment writes into the left array,
// whose dtype must hold the result under 'same_kind' casting (`int_array += 1.5` is a TypeError).
#pragma once

#include <kiln/ufuncs.hpp>

namespace kiln {

ndarray operator+(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator+(const ndarray& x, S y) {
    return add(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator+(S x, const ndarray& y) {
    return add(Scalar(x), y);
}
ndarray operator-(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator-(const ndarray& x, S y) {
    return subtract(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator-(S x, const ndarray& y) {
    return subtract(Scalar(x), y);
}
ndarray operator*(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator*(const ndarray& x, S y) {
    return multiply(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator*(S x, const ndarray& y) {
    return multiply(Scalar(x), y);
}
ndarray operator/(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator/(const ndarray& x, S y) {
    return true_divide(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator/(S x, const ndarray& y) {
    return true_divide(Scalar(x), y);
}
ndarray operator%(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator%(const ndarray& x, S y) {
    return remainder(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator%(S x, const ndarray& y) {
    return remainder(Scalar(x), y);
}
ndarray operator&(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator&(const ndarray& x, S y) {
    return bitwise_and(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator&(S x, const ndarray& y) {
    return bitwise_and(Scalar(x), y);
}
ndarray operator|(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator|(const ndarray& x, S y) {
    return bitwise_or(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator|(S x, const ndarray& y) {
    return bitwise_or(Scalar(x), y);
}
ndarray operator^(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator^(const ndarray& x, S y) {
    return bitwise_xor(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator^(S x, const ndarray& y) {
    return bitwise_xor(Scalar(x), y);
}
ndarray operator<<(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator<<(const ndarray& x, S y) {
    return left_shift(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator<<(S x, const ndarray& y) {
    return left_shift(Scalar(x), y);
}
ndarray operator>>(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator>>(const ndarray& x, S y) {
    return right_shift(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator>>(S x, const ndarray& y) {
    return right_shift(Scalar(x), y);
}
ndarray operator==(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator==(const ndarray& x, S y) {
    return equal(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator==(S x, const ndarray& y) {
    return equal(Scalar(x), y);
}
ndarray operator!=(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator!=(const ndarray& x, S y) {
    return not_equal(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator!=(S x, const ndarray& y) {
    return not_equal(Scalar(x), y);
}
ndarray operator<(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator<(const ndarray& x, S y) {
    return less(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator<(S x, const ndarray& y) {
    return less(Scalar(x), y);
}
ndarray operator<=(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator<=(const ndarray& x, S y) {
    return less_equal(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator<=(S x, const ndarray& y) {
    return less_equal(Scalar(x), y);
}
ndarray operator>(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator>(const ndarray& x, S y) {
    return greater(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator>(S x, const ndarray& y) {
    return greater(Scalar(x), y);
}
ndarray operator>=(const ndarray& x, const ndarray& y);
template <class S>
requires has_dtype<S> ndarray operator>=(const ndarray& x, S y) {
    return greater_equal(x, Scalar(y));
}
template <class S>
requires has_dtype<S> ndarray operator>=(S x, const ndarray& y) {
    return greater_equal(Scalar(x), y);
}
ndarray operator-(const ndarray& x);
ndarray operator+(const ndarray& x);
ndarray operator~(const ndarray& x);

ndarray& operator+=(ndarray& x, const Argument& y);
ndarray& operator-=(ndarray& x, const Argument& y);
ndarray& operator*=(ndarray& x, const Argument& y);
ndarray& operator/=(ndarray& x, const Argument& y);
ndarray& operator%=(ndarray& x, const Argument& y);
ndarray& operator&=(ndarray& x, const Argument& y);
ndarray& operator|=(ndarray& x, const Argument& y);
ndarray& operator^=(ndarray& x, const Argument& y);
ndarray& operator<<=(ndarray& x, const Argument& y);
ndarray& operator>>=(ndarray& x, const Argument& y);

}  // namespace kiln
