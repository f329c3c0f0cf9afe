// What one ufunc is: its arity, how its loop dtype follows from its inputs, what dtype it
// returns, and its operation for each kind of loop dtype. The table is ufunc_table.hpp; the call
// path that turns a definition into an ElementwiseKernel is ufunc_call.cpp.
#pragma once

#include <cstdint>
#include <string_view>

namespace kiln::detail {

// How the loop dtype follows from the promoted input dtype.
enum class LoopRule : std::uint8_t {
    promoted,       // the promoted dtype itself
    inexact,        // the smallest floating (or complex) dtype the promoted one casts to safely
    true_division,  // float64 for bool and integers, else the promoted dtype
    bool_as_int8,   // the promoted dtype, but int8 for bool (NumPy's first loop; it has no bool)
};

// The dtype the ufunc returns, from its loop dtype.
enum class OutputRule : std::uint8_t {
    loop,       // the loop dtype
    boolean,    // bool
    real_part,  // the loop dtype's real part (float64 for complex128)
};

// The operations are device expressions over `a`, `b` and `c`, the inputs converted to the
// loop's compute type `kiln_t` (float for float16), written with kiln/ufunc.h's helpers where
// NumPy's meaning differs from C++'s. An empty operation: the ufunc does not take that kind.
struct UfuncDefinition {
    std::string_view name;
    int arity;
    LoopRule loop;
    OutputRule output;
    std::string_view boolean;
    std::string_view integer;
    std::string_view floating;
    std::string_view complex;
};

}  // namespace kiln::detail
