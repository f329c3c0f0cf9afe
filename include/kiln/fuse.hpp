/// @file
/// kiln::fuse, CuPy's cupy.fuse in C++: a generic function of arrays and scalars becomes one
/// generated kernel. At the first call for a set of argument dtypes, ranks and scalar kinds, the
/// function is called with traced values (kiln::fusion::Var) standing for its arguments; the
/// operations it applies (operators, ufuncs, where, astype, and one of sum, prod, mean, max, min,
/// var, std, argmax, argmin along an axis) are recorded, and the expression becomes one
/// ElementwiseKernel, or one ReductionKernel with the elementwise part fused into its map and what
/// follows the reduction into its post-map. Later calls with the same kinds of arguments look the
/// kernel up and call it.
///
///     auto squared_diff = kiln::fuse("squared_diff",
///                                    [](auto x, auto y) { return (x - y) * (x - y); });
///     ndarray d = squared_diff(a, b);  // one elementwise kernel
///
/// The operations have the eager routines' names, dtypes and meaning (NEP 50 promotion, NumPy's
/// integer division by zero, NaN propagation, float16 computing in float), so the same function
/// runs eagerly on ndarrays and fused, with the same results. C++ scalars passed to the fused
/// function are kernel parameters: a new value does not recompile. Constants written inside the
/// function, and values it captures, are read once, when it is traced. A std::tuple of results is
/// several outputs of one elementwise kernel. A value used twice is computed once.
///
/// What a trace cannot follow is an error: branching on a traced value does not compile (use
/// kiln::where); an operation that cannot be fused, a second reduction, a reduction's result
/// combined with an array that is not reduced, or an expression of more than 1000 nodes is a
/// TypeError or ValueError at the first call, naming it.
#pragma once

#include <kiln/argument.hpp>
#include <kiln/dtype.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/operators.hpp>
#include <kiln/reduction_kernel.hpp>
#include <kiln/reductions.hpp>
#include <kiln/scalar.hpp>
#include <kiln/ufuncs.hpp>

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace kiln {

namespace fusion {

/// False for every type: a static_assert on it fails only where its template is instantiated.
template <class>
inline constexpr bool always_false = false;

/// A traced value: one node of the expression being traced. It exists only while a fused
/// function is traced; its operations record nodes instead of computing.
class Var {
public:
    /// The value of node `node` of the trace.
    explicit Var(std::int32_t node) noexcept : node_(node) {}

    /// The index of its node in the trace.
    [[nodiscard]] std::int32_t node() const noexcept { return node_; }

    /// ndarray::astype: the value converted to `dtype` (a complex value's real part to a real
    /// dtype, non-zero to true).
    [[nodiscard]] Var astype(DType dtype) const;

    /// A traced value has no truth value: `if (x > 0)` would pick one branch for every element.
    /// Instantiated (and so an error) only where a Var is used as a bool.
    template <class T>
    requires std::same_as<T, bool>
    explicit operator T() const {
        static_assert(always_false<T>,
                      "kiln::fuse: a traced value has no truth value (if, ?:, && and || on it "
                      "would pick one branch for every element); use kiln::where(condition, x, "
                      "y), kiln::logical_and or kiln::logical_or");
        return false;
    }

private:
    std::int32_t node_;
};

/// Whether T is a traced value.
template <class T>
concept traced = std::same_as<std::remove_cvref_t<T>, Var>;

/// An operand of a traced operation: a traced value or a C++ number (a weak scalar, NEP 50).
template <class T>
concept operand = traced<T> || has_dtype<std::remove_cvref_t<T>>;

/// Operands of which at least one is traced: the eager routine does not take them.
template <class... T>
concept traced_operands = (operand<T> && ...) && (traced<T> || ...);

/// An argument of a fused function's call: an array or a C++ number.
template <class T>
concept argument =
    std::same_as<std::remove_cvref_t<T>, ndarray> || has_dtype<std::remove_cvref_t<T>>;

/// An operand as recorded: a traced value or a scalar.
using Operand = std::variant<Var, Scalar>;

/// The recorded form of an operand: the Var itself, or a C++ number as a Scalar.
template <class T>
[[nodiscard]] Operand operand_of(const T& value) {
    if constexpr (traced<T>) {
        return value;
    } else {
        return Scalar(value);
    }
}

/// Records ufunc `ufunc` (a name of kiln/ufuncs.hpp, or "where") on `operands` in the trace.
[[nodiscard]] Var trace_ufunc(std::string_view ufunc, std::initializer_list<Operand> operands);
/// Records reduction `reduction` ("sum", "prod", "mean", "max", "min", "amax", "amin", "var",
/// "std", "argmax", "argmin").
[[nodiscard]] Var trace_reduction(std::string_view reduction, const Var& x, const Axis& axis,
                                  bool keepdims);
/// Records reduction `reduction` with ReduceOptions (axis, keepdims and var's and std's ddof; the
/// other options cannot be fused).
[[nodiscard]] Var trace_reduction(std::string_view reduction, const Var& x,
                                  const ReduceOptions& options);
/// Throws TypeError: `operation` cannot be fused.
[[noreturn]] void not_fusable(std::string_view operation);

#define KILN_FUSION_BINARY_OPERATOR(op, ufunc)                               \
    template <class X, class Y>                                              \
    requires traced_operands<X, Y> Var operator op(const X& x, const Y& y) { \
        return trace_ufunc(ufunc, {operand_of(x), operand_of(y)});           \
    }
KILN_FUSION_BINARY_OPERATOR(+, "add")
KILN_FUSION_BINARY_OPERATOR(-, "subtract")
KILN_FUSION_BINARY_OPERATOR(*, "multiply")
KILN_FUSION_BINARY_OPERATOR(/, "true_divide")
KILN_FUSION_BINARY_OPERATOR(%, "remainder")
KILN_FUSION_BINARY_OPERATOR(&, "bitwise_and")
KILN_FUSION_BINARY_OPERATOR(|, "bitwise_or")
KILN_FUSION_BINARY_OPERATOR(^, "bitwise_xor")
KILN_FUSION_BINARY_OPERATOR(<<, "left_shift")
KILN_FUSION_BINARY_OPERATOR(>>, "right_shift")
KILN_FUSION_BINARY_OPERATOR(==, "equal")
KILN_FUSION_BINARY_OPERATOR(!=, "not_equal")
KILN_FUSION_BINARY_OPERATOR(<, "less")
KILN_FUSION_BINARY_OPERATOR(<=, "less_equal")
KILN_FUSION_BINARY_OPERATOR(>, "greater")
KILN_FUSION_BINARY_OPERATOR(>=, "greater_equal")
#undef KILN_FUSION_BINARY_OPERATOR

/// -x, traced (negative).
inline Var operator-(const Var& x) {
    return trace_ufunc("negative", {x});
}
/// +x, traced (positive).
inline Var operator+(const Var& x) {
    return trace_ufunc("positive", {x});
}
/// ~x, traced (invert).
inline Var operator~(const Var& x) {
    return trace_ufunc("invert", {x});
}
/// !x, traced (logical_not).
inline Var operator!(const Var& x) {
    return trace_ufunc("logical_not", {x});
}

}  // namespace fusion

// The ufuncs and reductions of traced values, under the eager routines' names, so that
// `kiln::sqrt(kiln::sum(x * x, -1))` reads the same on ndarrays and in a fused function.
#define KILN_FUSION_UNARY(name)                     \
    inline fusion::Var name(const fusion::Var& x) { \
        return fusion::trace_ufunc(#name, {x});     \
    }
#define KILN_FUSION_BINARY(name)                                                           \
    template <class X, class Y>                                                            \
    requires fusion::traced_operands<X, Y> fusion::Var name(const X& x, const Y& y) {      \
        return fusion::trace_ufunc(#name, {fusion::operand_of(x), fusion::operand_of(y)}); \
    }
#define KILN_FUSION_TERNARY(name)                                                          \
    template <class X, class Y, class W>                                                   \
    requires fusion::traced_operands<X, Y, W> fusion::Var name(const X& x, const Y& y,     \
                                                               const W& w) {               \
        return fusion::trace_ufunc(                                                        \
            #name, {fusion::operand_of(x), fusion::operand_of(y), fusion::operand_of(w)}); \
    }
#define KILN_FUSION_REDUCTION(name)                                                \
    inline fusion::Var name(const fusion::Var& x) {                                \
        return fusion::trace_reduction(#name, x, Axis(), false);                   \
    }                                                                              \
    template <axis_argument A>                                                     \
    fusion::Var name(const fusion::Var& x, const A& axis, bool keepdims = false) { \
        return fusion::trace_reduction(#name, x, Axis(axis), keepdims);            \
    }                                                                              \
    inline fusion::Var name(const fusion::Var& x, const ReduceOptions& options) {  \
        return fusion::trace_reduction(#name, x, options);                         \
    }
// Reductions a fused function cannot hold: an error naming them when traced.
#define KILN_FUSION_NOT_FUSABLE_REDUCTION(name)                                                \
    inline fusion::Var name(const fusion::Var& /*x*/) {                                        \
        fusion::not_fusable(#name);                                                            \
    }                                                                                          \
    template <axis_argument A>                                                                 \
    fusion::Var name(const fusion::Var& /*x*/, const A& /*axis*/, bool /*keepdims*/ = false) { \
        fusion::not_fusable(#name);                                                            \
    }                                                                                          \
    inline fusion::Var name(const fusion::Var& /*x*/, const ReduceOptions& /*options*/) {      \
        fusion::not_fusable(#name);                                                            \
    }

KILN_FUSION_BINARY(add)
KILN_FUSION_BINARY(subtract)
KILN_FUSION_BINARY(multiply)
KILN_FUSION_BINARY(divide)
KILN_FUSION_BINARY(true_divide)
KILN_FUSION_BINARY(floor_divide)
KILN_FUSION_BINARY(remainder)
KILN_FUSION_BINARY(power)
KILN_FUSION_BINARY(maximum)
KILN_FUSION_BINARY(minimum)
KILN_FUSION_BINARY(fmax)
KILN_FUSION_BINARY(fmin)
KILN_FUSION_UNARY(negative)
KILN_FUSION_UNARY(positive)
KILN_FUSION_UNARY(absolute)
KILN_FUSION_UNARY(sign)
KILN_FUSION_UNARY(reciprocal)
KILN_FUSION_UNARY(square)
KILN_FUSION_BINARY(equal)
KILN_FUSION_BINARY(not_equal)
KILN_FUSION_BINARY(less)
KILN_FUSION_BINARY(less_equal)
KILN_FUSION_BINARY(greater)
KILN_FUSION_BINARY(greater_equal)
KILN_FUSION_BINARY(logical_and)
KILN_FUSION_BINARY(logical_or)
KILN_FUSION_BINARY(logical_xor)
KILN_FUSION_UNARY(logical_not)
KILN_FUSION_UNARY(isnan)
KILN_FUSION_UNARY(isinf)
KILN_FUSION_UNARY(isfinite)
KILN_FUSION_BINARY(bitwise_and)
KILN_FUSION_BINARY(bitwise_or)
KILN_FUSION_BINARY(bitwise_xor)
KILN_FUSION_UNARY(invert)
KILN_FUSION_BINARY(left_shift)
KILN_FUSION_BINARY(right_shift)
KILN_FUSION_TERNARY(clip)
KILN_FUSION_TERNARY(where)
KILN_FUSION_UNARY(real)
KILN_FUSION_UNARY(imag)
KILN_FUSION_UNARY(conj)
KILN_FUSION_UNARY(angle)
KILN_FUSION_UNARY(exp)
KILN_FUSION_UNARY(exp2)
KILN_FUSION_UNARY(expm1)
KILN_FUSION_UNARY(log)
KILN_FUSION_UNARY(log2)
KILN_FUSION_UNARY(log10)
KILN_FUSION_UNARY(log1p)
KILN_FUSION_UNARY(sqrt)
KILN_FUSION_UNARY(cbrt)
KILN_FUSION_UNARY(sin)
KILN_FUSION_UNARY(cos)
KILN_FUSION_UNARY(tan)
KILN_FUSION_UNARY(arcsin)
KILN_FUSION_UNARY(arccos)
KILN_FUSION_UNARY(arctan)
KILN_FUSION_UNARY(sinh)
KILN_FUSION_UNARY(cosh)
KILN_FUSION_UNARY(tanh)
KILN_FUSION_UNARY(arcsinh)
KILN_FUSION_UNARY(arccosh)
KILN_FUSION_UNARY(arctanh)
KILN_FUSION_UNARY(floor)
KILN_FUSION_UNARY(ceil)
KILN_FUSION_UNARY(trunc)
KILN_FUSION_UNARY(rint)

KILN_FUSION_REDUCTION(sum)
KILN_FUSION_REDUCTION(prod)
KILN_FUSION_REDUCTION(mean)
KILN_FUSION_REDUCTION(max)
KILN_FUSION_REDUCTION(min)
KILN_FUSION_REDUCTION(amax)
KILN_FUSION_REDUCTION(amin)

KILN_FUSION_REDUCTION(var)
KILN_FUSION_REDUCTION(std)
KILN_FUSION_REDUCTION(argmax)
KILN_FUSION_REDUCTION(argmin)

KILN_FUSION_NOT_FUSABLE_REDUCTION(all)
KILN_FUSION_NOT_FUSABLE_REDUCTION(any)
KILN_FUSION_NOT_FUSABLE_REDUCTION(count_nonzero)
KILN_FUSION_NOT_FUSABLE_REDUCTION(nansum)
KILN_FUSION_NOT_FUSABLE_REDUCTION(nanprod)
KILN_FUSION_NOT_FUSABLE_REDUCTION(nanmean)
KILN_FUSION_NOT_FUSABLE_REDUCTION(nanvar)
KILN_FUSION_NOT_FUSABLE_REDUCTION(nanstd)
KILN_FUSION_NOT_FUSABLE_REDUCTION(nanmax)
KILN_FUSION_NOT_FUSABLE_REDUCTION(nanmin)

#undef KILN_FUSION_UNARY
#undef KILN_FUSION_BINARY
#undef KILN_FUSION_TERNARY
#undef KILN_FUSION_REDUCTION
#undef KILN_FUSION_NOT_FUSABLE_REDUCTION

namespace detail {

// The most arguments a fused function takes.
inline constexpr std::size_t max_fused_arguments = 16;

// What selects a fused function's kernel: per argument its dtype, rank and whether it is a
// scalar (whose value is a kernel parameter), packed in 16 bits. Values do not enter it.
struct FusionKey {
    std::uint8_t count = 0;
    std::array<std::uint16_t, max_fused_arguments> codes{};

    bool operator==(const FusionKey&) const = default;
};

inline constexpr std::uint16_t fusion_scalar_bit = 0x8000;

[[nodiscard]] inline std::uint16_t fusion_code(const ndarray& array) noexcept {
    return static_cast<std::uint16_t>((static_cast<std::uint16_t>(array.ndim()) << 5U) |
                                      static_cast<std::uint16_t>(array.dtype()));
}
template <class T>
requires has_dtype<T>
[[nodiscard]] constexpr std::uint16_t fusion_code(const T& /*scalar*/) noexcept {
    return static_cast<std::uint16_t>(fusion_scalar_bit | static_cast<std::uint16_t>(dtype_of<T>));
}

template <class... A>
[[nodiscard]] FusionKey fusion_key(const A&... args) noexcept {
    static_assert(sizeof...(A) <= max_fused_arguments,
                  "kiln::fuse: a fused function takes at most 16 arguments");
    FusionKey key;
    key.count = static_cast<std::uint8_t>(sizeof...(A));
    const std::array<std::uint16_t, sizeof...(A)> codes{fusion_code(args)...};
    std::copy(codes.begin(), codes.end(), key.codes.begin());
    return key;
}

// The traced function's body, called with one traced value per argument; returns its results.
using FusionTrace = std::function<std::vector<fusion::Var>(std::span<const fusion::Var>)>;

class FusedKernel;

// One fused function's kernels, one per key, traced and built on first use.
class FusedFunction {
public:
    explicit FusedFunction(std::string name);
    ~FusedFunction();
    FusedFunction(const FusedFunction&) = delete;
    FusedFunction& operator=(const FusedFunction&) = delete;
    FusedFunction(FusedFunction&&) = delete;
    FusedFunction& operator=(FusedFunction&&) = delete;

    [[nodiscard]] const std::string& name() const noexcept;
    // The kernel of `key`, or null before it was traced.
    [[nodiscard]] const FusedKernel* find(const FusionKey& key) const noexcept;
    // Traces `trace` for `key`, builds its kernel and keeps it (or returns the one another thread
    // kept first).
    const FusedKernel& add(const FusionKey& key, const FusionTrace& trace);
    [[nodiscard]] std::size_t kernel_count() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

// Runs `kernel` on the fused function's arguments; returns its outputs.
[[nodiscard]] std::vector<ndarray> run_fused(const FusedKernel& kernel,
                                             std::span<const Argument> args);

template <class Tuple>
struct is_tuple : std::false_type {};
template <class... T>
struct is_tuple<std::tuple<T...>> : std::true_type {};

template <class T, class>
using repeat = T;

}  // namespace detail

/// A fused function: call it with arrays and C++ numbers as the traced function takes them.
template <class F>
class Fused {
public:
    /// A fused function named `name` (kernel names and errors use it) that traces `function`.
    Fused(std::string name, F function)
        : function_(std::move(function)),
          state_(std::make_shared<detail::FusedFunction>(std::move(name))) {}

    /// Runs the fused kernel: an ndarray, or a std::tuple of ndarrays when the function returns a
    /// std::tuple. Called with traced values (inside another fused function) it is inlined there.
    template <class... A>
    requires(fusion::argument<A>&&...) auto operator()(const A&... args) const {
        static_assert(sizeof...(A) <= detail::max_fused_arguments,
                      "kiln::fuse: a fused function takes at most 16 arguments");
        using Result = std::invoke_result_t<const F&, detail::repeat<fusion::Var, A>...>;
        static_assert(fusion::traced<Result> || detail::is_tuple<Result>::value,
                      "kiln::fuse: the function must return a traced value or a std::tuple of "
                      "them");
        const detail::FusionKey key = detail::fusion_key(args...);
        const detail::FusedKernel* kernel = state_->find(key);
        if (kernel == nullptr) {
            kernel = &state_->add(key, [this](std::span<const fusion::Var> vars) {
                return trace(vars, std::index_sequence_for<A...>{});
            });
        }
        const std::array<Argument, sizeof...(A)> call{as_argument(args)...};
        std::vector<ndarray> outputs = detail::run_fused(*kernel, call);
        if constexpr (fusion::traced<Result>) {
            return std::move(outputs.front());
        } else {
            return as_tuple(std::move(outputs),
                            std::make_index_sequence<std::tuple_size_v<Result>>{});
        }
    }
    /// Inside another fused function: calls the function on the traced values, so it is inlined
    /// there.
    template <class... A>
    requires fusion::traced_operands<A...>
    auto operator()(const A&... args) const { return std::invoke(function_, args...); }

    /// The name given to fuse().
    [[nodiscard]] const std::string& name() const noexcept { return state_->name(); }
    /// How many kernels were traced and built: one per key (dtypes, ranks, scalar kinds).
    [[nodiscard]] std::size_t kernel_count() const { return state_->kernel_count(); }

private:
    template <class A>
    static Argument as_argument(const A& arg) {
        if constexpr (std::same_as<A, ndarray>) {
            return arg;
        } else {
            return Argument(std::in_place_type<Scalar>, arg);
        }
    }

    template <std::size_t... I>
    [[nodiscard]] std::vector<fusion::Var> trace(std::span<const fusion::Var> vars,
                                                 std::index_sequence<I...> /*indices*/) const {
        const auto result = std::invoke(function_, vars[I]...);
        if constexpr (fusion::traced<decltype(result)>) {
            return {result};
        } else {
            return std::apply([](const auto&... r) { return std::vector<fusion::Var>{r...}; },
                              result);
        }
    }

    template <std::size_t... I>
    static auto as_tuple(std::vector<ndarray>&& outputs, std::index_sequence<I...> /*indices*/) {
        return std::tuple<detail::repeat<ndarray, std::integral_constant<std::size_t, I>>...>{
            std::move(outputs[I])...};
    }

    F function_;
    std::shared_ptr<detail::FusedFunction> state_;
};

/// cupy.fuse: `name` names the generated kernels, `fused_<name>` (a C identifier); `function` is
/// called with traced values, once per kind of arguments.
template <class F>
[[nodiscard]] Fused<F> fuse(std::string name, F function) {
    return Fused<F>(std::move(name), std::move(function));
}

}  // namespace kiln
