/// @file
/// NumPy's shape routines on kiln arrays, with CuPy's names: joining arrays (concatenate, stack),
/// flattening (ravel), reversing axes (flip) and copying with broadcasting and casting (copyto).
/// flip, and ravel of a C-contiguous array, are views that share memory as NumPy's are; the
/// others copy through kiln's strided cast-copy kernel on the current stream or a given one.
///
/// Dtypes follow NumPy 2: joined arrays promote as numpy.result_type of arrays, and every cast
/// (into the result, `out` or copyto's destination) is checked under a casting rule, 'same_kind'
/// by default. A C++ scalar given to copyto is weak (NEP 50), as it is to a ufunc.
#pragma once

#include <kiln/argument.hpp>
#include <kiln/dtype.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/reduction_kernel.hpp>
#include <kiln/stream_view.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>

namespace kiln {

/// concatenate's and stack's options, as NumPy's keywords.
struct JoinOptions {
    /// Written in place: it must have the joined shape, and every array must cast to its dtype
    /// under `casting`. The call returns it. Not with `dtype`.
    std::optional<ndarray> out;
    /// The result's dtype instead of the arrays' promoted one; every array must cast to it under
    /// `casting`. Not with `out`.
    std::optional<DType> dtype;
    /// How far the arrays' values may change kind into the result (NumPy's casting=).
    Casting casting = Casting::same_kind;
    std::optional<StreamView> stream;  ///< default: the arrays' device's current stream
};

/// The arrays joined along `axis` (negative counts from the end). They must have one number of
/// dimensions (at least 1) and equal extents except along `axis`. nullopt is NumPy's axis=None:
/// the arrays, of any shapes, are flattened in C order and joined into one 1-D array.
ndarray concatenate(std::span<const ndarray> arrays, std::optional<std::int64_t> axis = 0,
                    const JoinOptions& options = {});
/// concatenate with the arrays in braces: concatenate({a, b}).
ndarray concatenate(std::initializer_list<ndarray> arrays, std::optional<std::int64_t> axis = 0,
                    const JoinOptions& options = {});

/// The arrays, all of one shape, joined along a new axis, which is axis `axis` of the result
/// (in [-ndim - 1, ndim]).
ndarray stack(std::span<const ndarray> arrays, std::int64_t axis = 0,
              const JoinOptions& options = {});
/// stack with the arrays in braces: stack({a, b}).
ndarray stack(std::initializer_list<ndarray> arrays, std::int64_t axis = 0,
              const JoinOptions& options = {});

/// The elements of `a` in C order as a 1-D array: a view when `a` is C-contiguous, else a copy
/// made on `stream` (default: the current stream).
[[nodiscard]] ndarray ravel(const ndarray& a, std::optional<StreamView> stream = std::nullopt);

/// A view of `a` with the order of its elements reversed along `axis` (every axis by default),
/// through negative strides.
[[nodiscard]] ndarray flip(const ndarray& a, const Axis& axis = {});

/// The options of copyto (NumPy's keyword arguments).
struct CopytoOptions {
    /// How far the values may change kind on the way into dst (NumPy's casting=).
    Casting casting = Casting::same_kind;
    /// Only where this bool array, broadcast to dst's shape, is true (NumPy's where=).
    std::optional<ndarray> where;
    std::optional<StreamView> stream;  ///< default: the arrays' device's current stream
};

/// numpy.copyto: writes `src` (an array, or a scalar) broadcast to dst's shape and cast to its
/// dtype into `dst`, which may be a view. Throws ShapeError when src does not broadcast to dst,
/// TypeError when the cast is not allowed under `casting`. src may overlap dst.
void copyto(const ndarray& dst, const Argument& src, const CopytoOptions& options = {});

}  // namespace kiln
