// Values for testing kiln::distributed, and what each reduction makes of them, computed on the
// host: rank r's element i is a small integer (complex: with a distinct imaginary part), so every
// dtype holds it and every reduction of a few ranks exactly.
#pragma once

#include <kiln/distributed/communicator.hpp>
#include <kiln/dtype.hpp>
#include <kiln/float16.hpp>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace kiln::test {

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<std::complex<T>> : std::true_type {};

// Rank `rank`'s element `i`: 1 to 4 (bool: true or false; complex: v - vi).
template <class T>
T rank_value(std::size_t i, int rank) {
    const auto v = static_cast<int>((i * 3 + static_cast<std::size_t>(rank) * 5) % 4 + 1);
    if constexpr (std::is_same_v<T, bool>) {
        return (i + static_cast<std::size_t>(rank)) % 3 != 0;
    } else if constexpr (std::is_same_v<T, half>) {
        return half(static_cast<float>(v));
    } else if constexpr (is_complex<T>::value) {
        using R = typename T::value_type;
        return T(static_cast<R>(v), static_cast<R>(-v - static_cast<int>(i % 3)));
    } else {
        return static_cast<T>(v);
    }
}

template <class T>
std::vector<T> rank_values(std::size_t count, int rank) {
    std::vector<T> values(count);
    for (std::size_t i = 0; i < count; ++i) {
        values[i] = rank_value<T>(i, rank);
    }
    return values;
}

// Element i reduced by `op` over ranks 0 .. ranks-1, as NCCL computes it (avg: the sum divided
// by the rank count in T; bool: or for sum and max, and for prod and min).
template <class T>
T reduced_value(std::size_t i, int ranks, distributed::ReduceOp op) {
    using distributed::ReduceOp;
    if constexpr (std::is_same_v<T, bool>) {
        bool any = false;
        bool all = true;
        for (int r = 0; r < ranks; ++r) {
            any = any || rank_value<bool>(i, r);
            all = all && rank_value<bool>(i, r);
        }
        return op == ReduceOp::sum || op == ReduceOp::max ? any : all;
    } else if constexpr (std::is_same_v<T, half>) {
        return half(static_cast<float>(reduced_value<float>(i, ranks, op)));
    } else {
        T acc = rank_value<T>(i, 0);
        for (int r = 1; r < ranks; ++r) {
            const T v = rank_value<T>(i, r);
            if constexpr (is_complex<T>::value) {
                acc += v;  // sum and avg only
            } else {
                switch (op) {
                    case ReduceOp::sum:
                    case ReduceOp::avg:
                        acc += v;
                        break;
                    case ReduceOp::prod:
                        acc *= v;
                        break;
                    case ReduceOp::max:
                        acc = v > acc ? v : acc;
                        break;
                    case ReduceOp::min:
                        acc = v < acc ? v : acc;
                        break;
                }
            }
        }
        if (op == ReduceOp::avg) {
            acc /= static_cast<T>(ranks);
        }
        return acc;
    }
}

// Whether two elements are equal, bit for bit for half (exact values only).
template <class T>
bool same(const T& a, const T& b) {
    if constexpr (std::is_same_v<T, half>) {
        return a.bits == b.bits;
    } else {
        return a == b;
    }
}

// The operators kiln accepts for T's dtype.
template <class T>
std::vector<distributed::ReduceOp> reduce_ops() {
    using distributed::ReduceOp;
    if constexpr (is_complex<T>::value) {
        return {ReduceOp::sum, ReduceOp::avg};
    } else if constexpr (std::is_same_v<T, bool>) {
        return {ReduceOp::sum, ReduceOp::prod, ReduceOp::max, ReduceOp::min};
    } else {
        return {ReduceOp::sum, ReduceOp::prod, ReduceOp::max, ReduceOp::min, ReduceOp::avg};
    }
}

// Calls f.template operator()<T>() for every element type NCCL reduces (kiln's dtypes but the
// 16-bit integers).
template <class F>
void for_each_reduced_type(F f) {
    f.template operator()<bool>();
    f.template operator()<std::int8_t>();
    f.template operator()<std::uint8_t>();
    f.template operator()<std::int32_t>();
    f.template operator()<std::uint32_t>();
    f.template operator()<std::int64_t>();
    f.template operator()<std::uint64_t>();
    f.template operator()<half>();
    f.template operator()<float>();
    f.template operator()<double>();
    f.template operator()<std::complex<float>>();
    f.template operator()<std::complex<double>>();
}

}  // namespace kiln::test
