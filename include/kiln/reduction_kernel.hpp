/// @file
/// CuPy's ReductionKernel: map each element, combine the mapped values with a reduction, then
/// post-map the result into the outputs, over any set of axes. Compiled at run time per argument
/// types and layout, then cached. Unlike CuPy, every strategy splits a long reduction over many
/// blocks, any number of inputs is fine, and a kernel may have several outputs.
#pragma once

#include <kiln/argument.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/stream_view.hpp>

#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kiln {

namespace detail {
template <class KernelClass>
class GeneratedKernel;
struct Reduction;
}  // namespace detail

/// The axes to reduce over, as NumPy's `axis=`: all of them (the default, NumPy's None), one
/// axis, or several; negative axes count from the end. `Axis(std::vector<int>{})` reduces none.
class Axis {
public:
    Axis() = default;
    /// One axis.
    Axis(int axis) : axes_(std::vector<int>{axis}) {}  // NOLINT(google-explicit-constructor)
    /// Several axes: Axis{0, 2}.
    Axis(std::initializer_list<int> axes) : axes_(axes) {}
    /// The axes in a vector; an empty one reduces none.
    explicit Axis(std::vector<int> axes) : axes_(std::move(axes)) {}

    /// Whether every axis is reduced (the default).
    [[nodiscard]] bool all() const noexcept { return !axes_; }
    /// The axes as given; empty when all() is true.
    [[nodiscard]] std::span<const int> axes() const noexcept {
        return axes_ ? std::span<const int>(*axes_) : std::span<const int>();
    }

private:
    std::optional<std::vector<int>> axes_;
};

/// How a ReductionKernel is built (CuPy's constructor keywords).
struct ReductionOptions {
    /// The type of `a`, `b` and `_type_reduce`: a dtype name ("float64"), a C type name ("double"),
    /// or a placeholder ("T"). Empty: the outputs' types. Several outputs reduce one tuple: a
    /// comma-separated list ("float64, int64"), one type per tuple member; empty gives one member
    /// per output. A tuple `_type_reduce` has members `_0`, `_1`, ..., and is built from
    /// comma-separated lists: map_expr "x, 1", reduce_expr "a._0 + b._0, a._1 + b._1", identity
    /// "0, 0", post_map_expr "y = a._0; n = a._1".
    std::string reduce_type;
    bool reduce_dims = true;           ///< collapse dimensions before generating the kernel
    std::string preamble;              ///< code before the kernel (helper functions, constants)
    std::vector<std::string> options;  ///< compiler options
};

/// The options of one call of a ReductionKernel.
struct ReductionCallOptions {
    Axis axis;              ///< default: every axis
    bool keepdims = false;  ///< keep reduced axes as extent 1
    /// Outputs to write (CuPy's `out=`), one per out param; or pass them after the inputs.
    std::vector<ndarray> out;
    std::optional<StreamView> stream;  ///< default: the arrays' device's current stream
};

/// A reduction written as CuPy's cupy.ReductionKernel: map, reduce, post-map.
class ReductionKernel {
public:
    /// In `map_expr`, each input name is its element (a const reference; scalars by value), `_J`
    /// the element's position along the reduced axes, `_in_ind.size()` the input's element count
    /// and `_out_ind.size()` the output's. `reduce_expr` combines `a` and `b`; `post_map_expr`
    /// writes the outputs (references to their elements) from the result `a`. `identity` is the
    /// reduction's neutral element, or empty for none (then an empty reduction is an error).
    ReductionKernel(const std::string& in_params, const std::string& out_params,
                    std::string map_expr, std::string reduce_expr, std::string post_map_expr,
                    std::string identity, std::string name = "reduce_kernel",
                    const ReductionOptions& options = {});

    /// Inputs, then optionally every output. Returns the output of a single-output kernel; a
    /// kernel with several outputs is called through outputs().
    ndarray operator()(std::initializer_list<Argument> args,
                       const ReductionCallOptions& options = {}) const;
    /// The same, returning every output.
    [[nodiscard]] std::vector<ndarray> outputs(std::span<const Argument> args,
                                               const ReductionCallOptions& options = {}) const;
    /// The source generated for these arguments (CuPy's cached_codes), without compiling it or
    /// allocating missing outputs: a call of scalars needs no device at all.
    [[nodiscard]] std::string source(std::span<const Argument> args,
                                     const ReductionCallOptions& options = {}) const;

    /// The kernel's name.
    [[nodiscard]] const std::string& name() const noexcept;

private:
    friend struct detail::Reduction;  // makes kiln's routines' kernels, labelled by routine
    explicit ReductionKernel(std::shared_ptr<detail::GeneratedKernel<detail::Reduction>> state);

    std::shared_ptr<detail::GeneratedKernel<detail::Reduction>> state_;
};

}  // namespace kiln
