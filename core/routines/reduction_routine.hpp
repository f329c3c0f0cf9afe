// One reduction routine (sum, var, argmax, a norm...): a row of map, combine, identity and
// post-map over kiln/ufunc.h plus a rule for its dtypes, run as a ReductionKernel per routine,
// input, accumulator and output dtype, compiled once and cached like every other.
#pragma once

#include <kiln/dtype.hpp>
#include <kiln/reduction_kernel.hpp>
#include <kiln/reductions.hpp>
#include <kiln/scalar.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace kiln::detail {

// How a routine picks its accumulator and result dtypes from the input's (NumPy's rules; float16
// accumulates in float32 everywhere, as CuPy's does).
enum class Accumulate : std::uint8_t {
    widened,  // sum, prod: bool and small integers to 64 bits
    mean,     // bool and integers to float64
    same,     // max, min
    boolean,  // all, any: bool
    count,    // count_nonzero: int64
    index,    // argmax, argmin: the input's values, an int64 result
    real,     // var, std, norms: as mean, with the real part's dtype as result
};

struct ReductionRoutine {
    // A constructor rather than an aggregate, so the rows may leave out the trailing defaults.
    constexpr ReductionRoutine(std::string_view name, Accumulate accumulate, std::string_view map,
                               std::string_view combine, std::string_view identity,
                               std::string_view post, std::string_view kinds,
                               std::string_view members = "a", std::string_view parameter = {})
        : name(name),
          accumulate(accumulate),
          map(map),
          combine(combine),
          identity(identity),
          post(post),
          kinds(kinds),
          members(members),
          parameter(parameter) {}

    std::string_view name;
    Accumulate accumulate;
    // In the source: `x` the input element, `kiln_in` its type, `kiln_acc` the accumulator dtype's
    // type, `kiln_real` its real part's, `kiln_out` the output's, and the parameter's name.
    std::string_view map;
    std::string_view combine;   // of `a` and `b`
    std::string_view identity;  // empty: none, so an empty reduction is an error
    std::string_view post;      // writes `y` from `a`
    std::string_view kinds;     // the dtype kinds it takes (NumPy's kind letters)
    // What is reduced, a letter per member: 'a' kiln_acc, 'r' kiln_real, 'i' int64. One member
    // is `a` itself; several make a tuple, `a._0`, `a._1`, ...
    std::string_view members;
    // A scalar parameter of the kernel ("int64 ddof"), or empty.
    std::string_view parameter;
};

// The accumulator and result dtypes of `routine` over `input`.
[[nodiscard]] std::pair<DType, DType> routine_dtypes(const ReductionRoutine& routine, DType input);

// The routine's `_type_reduce`: one type per member, comma-separated.
[[nodiscard]] std::string reduce_type(const ReductionRoutine& routine, DType accumulator);

// The typedefs a routine's expressions use (kiln_in, kiln_acc, kiln_real, kiln_out), after
// kiln/ufunc.h's include.
[[nodiscard]] std::string routine_preamble(DType input, DType accumulator, DType out);

// Throws TypeError naming `routine` when it does not take `input`'s kind.
void check_kind(const ReductionRoutine& routine, DType input);

// The routine's kernel for these dtypes, built on first use.
[[nodiscard]] const ReductionKernel& routine_kernel(const ReductionRoutine& routine, DType input,
                                                    DType accumulator, DType out);

// Runs `routine` over `a` with NumPy's options; `parameter` is the kernel's scalar parameter.
[[nodiscard]] ndarray reduce(const ReductionRoutine& routine, const ndarray& a,
                             const ReduceOptions& options,
                             const std::optional<Scalar>& parameter = std::nullopt);

}  // namespace kiln::detail
