#include <kiln/operators.hpp>

namespace kiln {

namespace {

// Writes op(x, y) into x; the ufunc checks that x's dtype holds the result.
template <class Ufunc>
ndarray& in_place(Ufunc ufunc, ndarray& x, const Argument& y) {
    UfuncOptions options;
    options.out = x;
    (void)ufunc(x, y, options);
    return x;
}

}  // namespace

ndarray operator+(const ndarray& x, const ndarray& y) {
    return add(x, y);
}
ndarray operator-(const ndarray& x, const ndarray& y) {
    return subtract(x, y);
}
ndarray operator*(const ndarray& x, const ndarray& y) {
    return multiply(x, y);
}
ndarray operator/(const ndarray& x, const ndarray& y) {
    return true_divide(x, y);
}
ndarray operator%(const ndarray& x, const ndarray& y) {
    return remainder(x, y);
}
ndarray operator&(const ndarray& x, const ndarray& y) {
    return bitwise_and(x, y);
}
ndarray operator|(const ndarray& x, const ndarray& y) {
    return bitwise_or(x, y);
}
ndarray operator^(const ndarray& x, const ndarray& y) {
    return bitwise_xor(x, y);
}
ndarray operator<<(const ndarray& x, const ndarray& y) {
    return left_shift(x, y);
}
ndarray operator>>(const ndarray& x, const ndarray& y) {
    return right_shift(x, y);
}
ndarray operator==(const ndarray& x, const ndarray& y) {
    return equal(x, y);
}
ndarray operator!=(const ndarray& x, const ndarray& y) {
    return not_equal(x, y);
}
ndarray operator<(const ndarray& x, const ndarray& y) {
    return less(x, y);
}
ndarray operator<=(const ndarray& x, const ndarray& y) {
    return less_equal(x, y);
}
ndarray operator>(const ndarray& x, const ndarray& y) {
    return greater(x, y);
}
ndarray operator>=(const ndarray& x, const ndarray& y) {
    return greater_equal(x, y);
}
ndarray operator-(const ndarray& x) {
    return negative(x);
}
ndarray operator+(const ndarray& x) {
    return positive(x);
}
ndarray operator~(const ndarray& x) {
    return invert(x);
}
ndarray& operator+=(ndarray& x, const Argument& y) {
    return in_place(
        [](const Argument& a, const Argument& b, const UfuncOptions& o) { return add(a, b, o); }, x,
        y);
}
ndarray& operator-=(ndarray& x, const Argument& y) {
    return in_place([](const Argument& a, const Argument& b,
                       const UfuncOptions& o) { return subtract(a, b, o); },
                    x, y);
}
ndarray& operator*=(ndarray& x, const Argument& y) {
    return in_place([](const Argument& a, const Argument& b,
                       const UfuncOptions& o) { return multiply(a, b, o); },
                    x, y);
}
ndarray& operator/=(ndarray& x, const Argument& y) {
    return in_place([](const Argument& a, const Argument& b,
                       const UfuncOptions& o) { return true_divide(a, b, o); },
                    x, y);
}
ndarray& operator%=(ndarray& x, const Argument& y) {
    return in_place([](const Argument& a, const Argument& b,
                       const UfuncOptions& o) { return remainder(a, b, o); },
                    x, y);
}
ndarray& operator&=(ndarray& x, const Argument& y) {
    return in_place([](const Argument& a, const Argument& b,
                       const UfuncOptions& o) { return bitwise_and(a, b, o); },
                    x, y);
}
ndarray& operator|=(ndarray& x, const Argument& y) {
    return in_place([](const Argument& a, const Argument& b,
                       const UfuncOptions& o) { return bitwise_or(a, b, o); },
                    x, y);
}
ndarray& operator^=(ndarray& x, const Argument& y) {
    return in_place([](const Argument& a, const Argument& b,
                       const UfuncOptions& o) { return bitwise_xor(a, b, o); },
                    x, y);
}
ndarray& operator<<=(ndarray& x, const Argument& y) {
    return in_place([](const Argument& a, const Argument& b,
                       const UfuncOptions& o) { return left_shift(a, b, o); },
                    x, y);
}
ndarray& operator>>=(ndarray& x, const Argument& y) {
    return in_place([](const Argument& a, const Argument& b,
                       const UfuncOptions& o) { return right_shift(a, b, o); },
                    x, y);
}

}  // namespace kiln
