/// @file
/// kiln arrays as text, printed as NumPy 2 (2.3 and later) prints them with its default print
/// options (CuPy's arrays print through NumPy, so the same): precision 8, line width 75, and arrays
/// of more than 1000 elements summarized to 3 items at each end of an axis, with "..." and their
/// shape. Printing copies the shown elements to the host, synchronously, on the current stream.
#pragma once

#include <kiln/ndarray.hpp>

#include <iosfwd>
#include <string>

namespace kiln {

/// numpy.array_repr: `"array([[0., 1.],\n       [2., 3.]], dtype=float32)"`. The dtype is left out
/// for float64, int64, complex128 and bool, as NumPy leaves it out.
[[nodiscard]] std::string array_repr(const ndarray& a);

/// numpy.array_str (Python's str and print): `"[[0. 1.]\n [2. 3.]]"`; a 0-d array prints its value
/// as NumPy's scalar does ("3.5").
[[nodiscard]] std::string array_str(const ndarray& a);

/// array_repr(a).
[[nodiscard]] std::string to_string(const ndarray& a);

/// Writes array_str(a), as Python's print does: "2.0", "[0. 1.]".
std::ostream& operator<<(std::ostream& out, const ndarray& a);

}  // namespace kiln
