/// @file
/// Element-wise work on distributed arrays, shard by shard: any function of ndarrays (every
/// ufunc, every operator, a fused function, an ElementwiseKernel) applied to the shards that
/// share an index map, with scalars passed to every shard. Nothing moves between devices: the
/// arrays must have the same shape, index map and communicators (ValueError naming what differs),
/// and the result keeps that partition.
///
///     auto c = shardwise(kiln::add, a, b);            // every ufunc, by name
///     auto d = shardwise(kiln::power, a, 2.0);        // scalars broadcast
///     auto e = (a - b) * (a - b);                     // the operators
///     auto f = shardwise([](const ndarray& x) { return kiln::exp(-x); }, a);
#pragma once

#include <kiln/distributed/array.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/operators.hpp>
#include <kiln/scalar.hpp>
#include <kiln/ufuncs.hpp>

#include <concepts>
#include <cstddef>
#include <functional>
#include <type_traits>
#include <vector>

namespace kiln::distributed {

/// What shardwise passes on: a distributed array (shard by shard) or a scalar (to every shard).
template <class T>
concept shardwise_operand = std::same_as<std::remove_cvref_t<T>, DistributedArray> ||
    std::same_as<std::remove_cvref_t<T>, Scalar> || has_dtype<std::remove_cvref_t<T>>;

namespace detail {

template <class T>
inline constexpr bool is_distributed_array = std::same_as<std::remove_cvref_t<T>, DistributedArray>;

/// Internal: ValueError naming `function` unless every array has the first's shape, index map
/// and communicators.
void require_same_partition(const std::vector<const DistributedArray*>& arrays,
                            const char* function);

/// Internal: a one-element array of `a`'s dtype and dimensions on its first local rank's device,
/// to learn the dtype of a result on a process that holds no shard.
[[nodiscard]] ndarray probe_array(const DistributedArray& a);

/// Internal: the array of shards `results` (one per local shard of `like`, same shapes), whose
/// dtype is the probe's where this process holds none.
[[nodiscard]] DistributedArray from_shard_results(const DistributedArray& like,
                                                  std::vector<ndarray> results,
                                                  const std::function<ndarray()>& probe,
                                                  const char* function);

template <class T>
decltype(auto) shard_of(const T& operand, std::size_t i) {
    if constexpr (is_distributed_array<T>) {
        return (operand.local_shards()[i].array);
    } else {
        return (operand);
    }
}

template <class T>
decltype(auto) probe_of(const T& operand) {
    if constexpr (is_distributed_array<T>) {
        return probe_array(operand);
    } else {
        return (operand);
    }
}

template <class First, class... Rest>
const DistributedArray& first_distributed(const First& first, const Rest&... rest) {
    if constexpr (is_distributed_array<First>) {
        return first;
    } else {
        return first_distributed(rest...);
    }
}

}  // namespace detail

/// `function` applied to each local shard of the distributed operands (scalars passed as they
/// are), on the shard's device; the results, which must keep the shards' shapes, form a
/// distributed array with the operands' partition. Collective only where the function is.
template <class F, shardwise_operand... Operands>
requires(detail::is_distributed_array<Operands> || ...) [[nodiscard]] DistributedArray
    shardwise(F&& function, const Operands&... operands) {
    std::vector<const DistributedArray*> arrays;
    (
        [&] {
            if constexpr (detail::is_distributed_array<Operands>) {
                arrays.push_back(&operands);
            }
        }(),
        ...);
    detail::require_same_partition(arrays, "shardwise");
    const DistributedArray& like = detail::first_distributed(operands...);
    std::vector<ndarray> results;
    results.reserve(like.local_shards().size());
    for (std::size_t i = 0; i < like.local_shards().size(); ++i) {
        // Arrays the function makes belong to the shard's device.
        const DeviceGuard guard(like.local_shards()[i].array.device());
        results.push_back(function(detail::shard_of(operands, i)...));
    }
    return detail::from_shard_results(
        like, std::move(results), [&] { return function(detail::probe_of(operands)...); },
        "shardwise");
}

/// A unary ufunc taken by name (kiln::sin): its default options are lost on the way.
using UnaryUfunc = ndarray (*)(const Argument&, const UfuncOptions&);
/// A binary ufunc taken by name (kiln::add).
using BinaryUfunc = ndarray (*)(const Argument&, const Argument&, const UfuncOptions&);

/// `ufunc` (kiln::sin, ...) applied shard-wise, as shardwise(function, x) with the default options.
[[nodiscard]] inline DistributedArray shardwise(UnaryUfunc ufunc, const DistributedArray& x) {
    return shardwise([ufunc](const ndarray& a) { return ufunc(a, {}); }, x);
}

/// `ufunc` (kiln::add, ...) applied shard-wise, as shardwise(function, x, y) with the default
/// options; either operand may be a scalar.
template <shardwise_operand X, shardwise_operand Y>
requires(detail::is_distributed_array<X> || detail::is_distributed_array<Y>)
    [[nodiscard]] DistributedArray shardwise(BinaryUfunc ufunc, const X& x, const Y& y) {
    return shardwise([ufunc](const auto& a, const auto& b) { return ufunc(a, b, {}); }, x, y);
}

/// What the operators take: a distributed array or a C++ scalar, as ndarray's operators do.
template <class T>
concept operator_operand = detail::is_distributed_array<T> || has_dtype<std::remove_cvref_t<T>>;

/// x op y shard-wise, as the ndarray operator (kiln/operators.hpp); either side may be a scalar.
#define KILN_DISTRIBUTED_BINARY_OPERATOR(op)                                         \
    template <operator_operand X, operator_operand Y>                                \
    requires(detail::is_distributed_array<X> || detail::is_distributed_array<Y>)     \
        [[nodiscard]] DistributedArray                                               \
        operator op(const X& x, const Y& y) {                                        \
        return shardwise([](const auto& a, const auto& b) { return a op b; }, x, y); \
    }
KILN_DISTRIBUTED_BINARY_OPERATOR(+)
KILN_DISTRIBUTED_BINARY_OPERATOR(-)
KILN_DISTRIBUTED_BINARY_OPERATOR(*)
KILN_DISTRIBUTED_BINARY_OPERATOR(/)
KILN_DISTRIBUTED_BINARY_OPERATOR(%)
KILN_DISTRIBUTED_BINARY_OPERATOR(&)
KILN_DISTRIBUTED_BINARY_OPERATOR(|)
KILN_DISTRIBUTED_BINARY_OPERATOR(^)
KILN_DISTRIBUTED_BINARY_OPERATOR(<<)
KILN_DISTRIBUTED_BINARY_OPERATOR(>>)
KILN_DISTRIBUTED_BINARY_OPERATOR(==)
KILN_DISTRIBUTED_BINARY_OPERATOR(!=)
KILN_DISTRIBUTED_BINARY_OPERATOR(<)
KILN_DISTRIBUTED_BINARY_OPERATOR(<=)
KILN_DISTRIBUTED_BINARY_OPERATOR(>)
KILN_DISTRIBUTED_BINARY_OPERATOR(>=)
#undef KILN_DISTRIBUTED_BINARY_OPERATOR

/// -x shard-wise (numpy.negative).
[[nodiscard]] inline DistributedArray operator-(const DistributedArray& x) {
    return shardwise([](const ndarray& a) { return -a; }, x);
}
/// ~x shard-wise (numpy.invert).
[[nodiscard]] inline DistributedArray operator~(const DistributedArray& x) {
    return shardwise([](const ndarray& a) { return ~a; }, x);
}

}  // namespace kiln::distributed
