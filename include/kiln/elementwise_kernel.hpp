/// @file
/// CuPy's ElementwiseKernel: an operation written per element, with CuPy's parameter grammar
/// (`[raw] TYPE NAME`, one-letter placeholder types), broadcasting, output allocation and
/// dimension collapsing; compiled at run time per argument types and layout, then cached.
#pragma once

#include <kiln/argument.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/scalar.hpp>
#include <kiln/stream_view.hpp>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace kiln {

namespace detail {
template <class KernelClass>
class GeneratedKernel;
struct Elementwise;
}  // namespace detail

/// How an ElementwiseKernel is built (CuPy's constructor keywords).
struct ElementwiseOptions {
    bool reduce_dims = true;           ///< collapse dimensions before generating the kernel
    std::string preamble;              ///< code before the kernel (helper functions, constants)
    std::string loop_prep;             ///< code inside the kernel, before the loop
    std::string after_loop;            ///< code inside the kernel, after the loop
    std::vector<std::string> options;  ///< compiler options
    /// CuPy's no_return: a call launches and returns nothing; operator() returns an empty ndarray
    /// and outputs() an empty vector, without copying a handle. Pass the outputs to see results
    /// (missing ones are allocated, written and dropped). Takes precedence over return_tuple.
    bool no_return = false;
    /// CuPy's return_tuple: the results are always the list of outputs, even for one output, so
    /// outputs() is the call to use and operator() throws TypeError.
    bool return_tuple = false;
};

/// The options of one call of an ElementwiseKernel.
struct CallOptions {
    /// The element count when every array argument is raw (and only then).
    std::optional<std::int64_t> size;
    std::optional<StreamView> stream;  ///< default: the arrays' device's current stream
};

/// An element-wise kernel written as CuPy's cupy.ElementwiseKernel: typed parameters and a body run
/// for every element.
class ElementwiseKernel {
public:
    /// In `operation`, each non-raw parameter name is a reference to its element (const for
    /// inputs), `i` is the element's index and `_ind.size()` the element count; raw parameters are
    /// indexed by C-order position: `x[i]`.
    ElementwiseKernel(const std::string& in_params, const std::string& out_params,
                      std::string operation, std::string name = "kernel",
                      ElementwiseOptions options = {});

    /// Inputs, then optionally every output (written in place); missing outputs are allocated.
    /// Returns the output of a kernel with one output. Throws TypeError, before touching the
    /// device, for a kernel with several outputs or with return_tuple set (call outputs() for
    /// those), unless no_return is set: then it launches and returns an empty ndarray.
    ndarray operator()(std::initializer_list<Argument> args, const CallOptions& options = {}) const;
    /// The same, returning every output in out_params order (empty with no_return).
    [[nodiscard]] std::vector<ndarray> outputs(std::span<const Argument> args,
                                               const CallOptions& options = {}) const;
    /// The source generated for these arguments (CuPy's cached_codes), without compiling it or
    /// allocating missing outputs: a call of scalars and size= needs no device at all.
    [[nodiscard]] std::string source(std::span<const Argument> args,
                                     const CallOptions& options = {}) const;

    /// The kernel's name.
    [[nodiscard]] const std::string& name() const noexcept;

private:
    std::shared_ptr<detail::GeneratedKernel<detail::Elementwise>> state_;
};

}  // namespace kiln
