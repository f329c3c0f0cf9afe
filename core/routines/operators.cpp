#include "ufunc_call.hpp"
#include "ufunc_table.hpp"

#include <kiln/operators.hpp>

#include <array>

namespace kiln {

namespace {

// The ufunc of two arrays, each copied once into its arguments (not first into an Argument).
ndarray binary(const detail::UfuncDefinition& ufunc, const ndarray& x, const ndarray& y) {
    const std::array<Argument, 2> args{x, y};
    return detail::call_ufunc(ufunc, args, {});
}

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
    return binary(detail::ufuncs::add, x, y);
}
ndarray operator-(const ndarray& x, const ndarray& y) {
    return binary(detail::ufuncs::subtract, x, y);
}
ndarray operator*(const ndarray& x, const ndarray& y) {
    return binary(detail::ufuncs::multiply, x, y);
}
ndarray operator/(const ndarray& x, const ndarray& y) {
    return binary(detail::ufuncs::true_divide, x, y);
}
ndarray operator%(const ndarray& x, const ndarray& y) {
    return binary(detail::ufuncs::remainder, x, y);
}
ndarray operator&(const ndarray& x, const ndarray& y) {
    return binary(detail::ufuncs::bitwise_and, x, y);
}
ndarray operator|(const ndarray& x, const ndarray& y) {
    return binary(detail::ufuncs::bitwise_or, x, y);
}
ndarray operator^(const ndarray& x, const ndarray& y) {
    return binary(detail::ufuncs::bitwise_xor, x, y);
}
ndarray operator<<(const ndarray& x, const ndarray& y) {
    return binary(detail::ufuncs::left_shift, x, y);
}
ndarray operator>>(const ndarray& x, const ndarray& y) {
    return binary(detail::ufuncs::right_shift, x, y);
}
ndarray operator==(const ndarray& x, const ndarray& y) {
    return binary(detail::ufuncs::equal, x, y);
}
ndarray operator!=(const ndarray& x, const ndarray& y) {
    return binary(detail::ufuncs::not_equal, x, y);
}
ndarray operator<(const ndarray& x, const ndarray& y) {
    return binary(detail::ufuncs::less, x, y);
}
ndarray operator<=(const ndarray& x, const ndarray& y) {
    return binary(detail::ufuncs::less_equal, x, y);
}
ndarray operator>(const ndarray& x, const ndarray& y) {
    return binary(detail::ufuncs::greater, x, y);
}
ndarray operator>=(const ndarray& x, const ndarray& y) {
    return binary(detail::ufuncs::greater_equal, x, y);
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
