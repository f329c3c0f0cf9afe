#include "ufunc_call.hpp"

#include "../array/array_memory.hpp"
#include "../call_context.hpp"
#include "../error_message.hpp"
#include "../kernels/call_memo.hpp"
#include "deferred_calls.hpp"
#include "exact_comparison.hpp"
#include "promotion.hpp"

#include <kiln/elementwise_kernel.hpp>
#include <kiln/error.hpp>
#include <kiln/lazy.hpp>
#include <kiln/manipulation.hpp>
#include <kiln/shape.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

namespace kiln::detail {

namespace {

std::string_view operation_for(const UfuncDefinition& ufunc, DType loop) {
    switch (kind(loop)) {
        case 'b':
            return ufunc.boolean;
        case 'i':
        case 'u':
            return ufunc.integer;
        case 'f':
            return ufunc.floating;
        default:
            return ufunc.complex;
    }
}

std::string kinds_taken(const UfuncDefinition& ufunc) {
    std::string list;
    const std::array<std::pair<std::string_view, std::string_view>, 4> kinds = {{
        {ufunc.boolean, "bool"},
        {ufunc.integer, "integer"},
        {ufunc.floating, "floating"},
        {ufunc.complex, "complex"},
    }};
    for (const auto& [operation, kind_name] : kinds) {
        if (!operation.empty()) {
            list += (list.empty() ? "" : ", ") + std::string(kind_name);
        }
    }
    return list;
}

DType dtype_of(const Argument& arg) {
    const auto* array = std::get_if<ndarray>(&arg);
    return array != nullptr ? array->dtype() : std::get<Scalar>(arg).dtype();
}

std::string dtypes_of(std::span<const Argument> args) {
    std::string list;
    for (const Argument& arg : args) {
        list += (list.empty() ? "" : ", ") + std::string(name(dtype_of(arg)));
    }
    return list;
}

// One placeholder per input: each binds its argument's dtype, and the operation converts.
std::string input_params(int arity) {
    return arity == 1 ? "X x" : (arity == 2 ? "X x, Y y" : "X x, Y y, W w");
}

// float16 computes in float, as NumPy's float16 loops do.
std::string_view compute_type(DType loop) {
    return loop == DType::float16 ? "float" : c_type(loop);
}

DType requested_loop(const UfuncDefinition& ufunc, std::span<const Argument> args, DType dtype) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (!can_cast(dtype_of(args[i]), dtype, Casting::same_kind)) {
            throw TypeError("kiln: " + std::string(ufunc.name) + ": argument " +
                            std::to_string(i + 1) + " of dtype " +
                            std::string(name(dtype_of(args[i]))) +
                            " cannot be cast to the requested dtype " + std::string(name(dtype)) +
                            " under 'same_kind' casting");
        }
    }
    return dtype;
}

// A weak scalar must be representable in an integer loop dtype (NEP 50).
// `first` numbers args[0] in messages (where's x is its argument 2).
void check_scalars_fit(const UfuncDefinition& ufunc, std::span<const Argument> args, DType loop,
                       std::size_t first = 1) {
    if (kind(loop) != 'i' && kind(loop) != 'u') {
        return;
    }
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto* scalar = std::get_if<Scalar>(&args[i]);
        if (scalar == nullptr) {
            continue;
        }
        try {
            (void)scalar->bytes_as(loop);
        } catch (const TypeError&) {
            throw TypeError("kiln: " + std::string(ufunc.name) + ": argument " +
                            std::to_string(i + first) + ": the scalar cannot be represented in " +
                            std::string(name(loop)) + ", the dtype of the other arguments");
        }
    }
}

std::optional<Shape> broadcast_shape(const UfuncDefinition& ufunc, std::span<const Argument> args) {
    // Most calls take arrays of one shape: that shape, without gathering copies of each.
    const Shape* common = nullptr;
    bool same = true;
    for (const Argument& arg : args) {
        if (const auto* array = std::get_if<ndarray>(&arg)) {
            same = same && (common == nullptr || *common == array->shape());
            common = common == nullptr ? &array->shape() : common;
        }
    }
    if (common == nullptr) {
        return std::nullopt;
    }
    if (same) {
        return *common;
    }
    std::vector<Shape> shapes;
    for (const Argument& arg : args) {
        if (const auto* array = std::get_if<ndarray>(&arg)) {
            shapes.push_back(array->shape());
        }
    }
    try {
        return broadcast_shapes(shapes);
    } catch (const ShapeError& e) {
        throw ShapeError("kiln: " + std::string(ufunc.name) + ": " +
                         std::string(without_kiln_prefix(e.what())));
    }
}

void check_out(const UfuncDefinition& ufunc, const ndarray& out, DType result,
               const std::optional<Shape>& shape) {
    // Built only for an error: this runs at every call with `out`.
    const auto context = [&] { return "kiln: " + std::string(ufunc.name) + ": out "; };
    if (!can_cast(result, out.dtype(), Casting::same_kind)) {
        throw TypeError(context() + "has dtype " + std::string(name(out.dtype())) +
                        "; the result's dtype " + std::string(name(result)) +
                        " does not cast to it under 'same_kind' casting");
    }
    const Shape expected = shape.value_or(Shape{});
    if (out.shape() != expected) {
        throw ShapeError(context() + "has shape " + to_string(out.shape()) +
                         "; expected the broadcast shape " + to_string(expected));
    }
}

// Runs `kernel` on `call` (the inputs, then `out` when given) and returns `out`, the new array,
// or, for scalars alone (`has_arrays` false), a 0-d array of the one element computed.
ndarray run(const ElementwiseKernel& kernel, std::span<const Argument> call, bool has_arrays,
            const UfuncOptions& options) {
    CallOptions call_options;
    call_options.stream = options.stream;
    if (!has_arrays && !options.out) {
        call_options.size = 1;
    }
    std::vector<ndarray> outputs = kernel.outputs(call, call_options);
    if (options.out) {
        return *options.out;
    }
    return has_arrays ? std::move(outputs.front()) : outputs.front().reshape({});
}

// A ufunc's call options never change its kernel beyond what kernel_follows_from_arrays asks.
const CallSignature no_call_options{};

// Whether a call's kernel follows from its ufunc and its arguments' dtypes and shapes alone:
// arrays only, eager, no out and no dtype. Then each thread remembers it (call_memo.hpp).
bool kernel_follows_from_arrays(std::span<const Argument> args, const UfuncOptions& options) {
    return !options.out && !options.dtype &&
           std::all_of(args.begin(), args.end(),
                       [](const Argument& arg) { return std::holds_alternative<ndarray>(arg); }) &&
           !lazy_fusion();
}

// `value` everywhere: in `out`, or a new bool array of the broadcast shape on the arrays' device.
ndarray filled(const UfuncDefinition& ufunc, bool value, std::span<const Argument> args,
               const std::optional<Shape>& shape, const UfuncOptions& options) {
    std::optional<int> device;
    for (const Argument& arg : args) {
        if (const auto* array = std::get_if<ndarray>(&arg); array != nullptr && !device) {
            device = array->device();
        }
    }
    const StreamView stream = call_context(ufunc.name, options.stream, device);
    ndarray result =
        options.out ? *options.out : empty_on(shape.value_or(Shape{}), DType::bool_, stream);
    copyto(result, Scalar(value), {.stream = stream});
    return result;
}

}  // namespace

DType loop_dtype(const UfuncDefinition& ufunc, DType promoted) {
    const char k = kind(promoted);
    switch (ufunc.loop) {
        case LoopRule::promoted:
            return promoted;
        case LoopRule::true_division:
            return k == 'f' || k == 'c' ? promoted : DType::float64;
        case LoopRule::bool_as_int8:
            return k == 'b' ? DType::int8 : promoted;
        case LoopRule::inexact:
            if (k == 'f' || k == 'c') {
                return promoted;
            }
            for (const DType floating : {DType::float16, DType::float32}) {
                if (can_cast(promoted, floating)) {
                    return floating;
                }
            }
            return DType::float64;
    }
    return promoted;
}

DType output_dtype(const UfuncDefinition& ufunc, DType loop) {
    switch (ufunc.output) {
        case OutputRule::loop:
            return loop;
        case OutputRule::boolean:
            return DType::bool_;
        case OutputRule::real_part:
            return real_dtype(loop);
    }
    return loop;
}

std::string ufunc_operation(const UfuncDefinition& ufunc, DType loop, DType out) {
    const std::string_view operation = operation_for(ufunc, loop);
    if (operation.empty()) {
        throw TypeError("kiln: " + std::string(ufunc.name) + ": dtype " + std::string(name(loop)) +
                        " is not supported; it takes " + kinds_taken(ufunc) + " dtypes");
    }
    std::string code = "typedef " + std::string(c_type(loop)) + " kiln_s; typedef " +
                       std::string(compute_type(loop)) + " kiln_t;\n";
    code += "const kiln_t a = kiln::ufunc::cast<kiln_t>(kiln::ufunc::cast<kiln_s>(x));\n";
    if (ufunc.arity >= 2) {
        code += "const kiln_t b = kiln::ufunc::cast<kiln_t>(kiln::ufunc::cast<kiln_s>(y));\n";
    }
    if (ufunc.arity == 3) {
        code += "const kiln_t c = kiln::ufunc::cast<kiln_t>(kiln::ufunc::cast<kiln_s>(w));\n";
    }
    code +=
        "z = kiln::ufunc::cast<" + std::string(c_type(out)) + ">(" + std::string(operation) + ");";
    return code;
}

const ElementwiseKernel& ufunc_kernel(const UfuncDefinition& ufunc, DType loop, DType out) {
    using Key = std::tuple<const UfuncDefinition*, DType, DType>;
    const Key key{&ufunc, loop, out};
    // A thread's last kernel, without the lock: a loop calls one ufunc on one dtype. The map's
    // kernels are never removed, so the pointer stays good.
    thread_local std::pair<Key, const ElementwiseKernel*> last{};
    if (last.second != nullptr && last.first == key) {
        return *last.second;
    }
    static std::mutex mutex;
    static auto& kernels = *new std::map<Key, ElementwiseKernel>();
    const std::scoped_lock lock(mutex);
    auto found = kernels.find(key);
    if (found == kernels.end()) {
        ElementwiseOptions options;
        options.preamble = "#include <kiln/ufunc.h>\n";
        found = kernels
                    .emplace(key, ElementwiseKernel(input_params(ufunc.arity),
                                                    std::string(name(out)) + " z",
                                                    ufunc_operation(ufunc, loop, out),
                                                    "kiln_" + std::string(ufunc.name), options))
                    .first;
    }
    last = {key, &found->second};
    return found->second;
}

ndarray call_ufunc(const UfuncDefinition& ufunc, std::span<const Argument> args,
                   const UfuncOptions& options) {
    // Ufunc definitions are static: an address names one for the life of the process.
    const auto owner = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(&ufunc));
    // Its kernels live as long as the process.
    using Memo = CallMemo<const ElementwiseKernel*>;
    Memo* const kernels = kernel_follows_from_arrays(args, options)
                              ? this_thread_memo<const ElementwiseKernel*>()
                              : nullptr;
    if (const Memo::Held kernel =
            kernels != nullptr ? kernels->find(owner, 0, args, no_call_options) : Memo::Held()) {
        return run(**kernel, args, true, options);
    }
    const DType loop = options.dtype ? requested_loop(ufunc, args, *options.dtype)
                                     : loop_dtype(ufunc, result_type(args));
    if (operation_for(ufunc, loop).empty()) {
        throw TypeError("kiln: " + std::string(ufunc.name) + ": arguments of dtype " +
                        dtypes_of(args) + " are not supported (loop dtype " +
                        std::string(name(loop)) + "); it takes " + kinds_taken(ufunc) + " dtypes");
    }
    // A requested dtype is a cast the scalar must survive, as in NumPy.
    const std::optional<bool> constant =
        options.dtype ? std::nullopt : out_of_range_comparison(ufunc, args, loop);
    if (!constant) {
        check_scalars_fit(ufunc, args, loop);
    }
    const std::optional<Shape> shape = broadcast_shape(ufunc, args);
    const DType result = output_dtype(ufunc, loop);
    if (options.out) {
        check_out(ufunc, *options.out, result, shape);
    }
    if (constant) {
        return filled(ufunc, *constant, args, shape, options);
    }
    // The kernel's arguments: the inputs, then out. Copied only for an eager call with out.
    std::vector<Argument> with_out;
    const auto call = [&]() -> std::span<const Argument> {
        if (!options.out) {
            return args;
        }
        with_out.assign(args.begin(), args.end());
        with_out.emplace_back(*options.out);
        return with_out;
    };
    const DType written = options.out ? options.out->dtype() : result;
    const ElementwiseKernel* exact =
        options.dtype ? nullptr : integer_comparison_kernel(ufunc, args, loop, written);
    if (exact == nullptr && shape && !options.out && !options.dtype) {
        if (auto deferred = defer_ufunc(ufunc, args, loop, result, *shape, options.stream)) {
            return std::move(*deferred);
        }
    }
    const ElementwiseKernel& kernel =
        exact != nullptr ? *exact : ufunc_kernel(ufunc, loop, written);
    ndarray out = run(kernel, call(), shape.has_value(), options);
    if (kernels != nullptr) {
        kernels->remember(owner, 0, args, no_call_options, &kernel);
    }
    return out;
}

namespace {

// For where's messages and checks: it is not a ufunc (its condition takes no part in promotion).
constexpr UfuncDefinition where_routine{.name = "where",
                                        .arity = 3,
                                        .loop = LoopRule::promoted,
                                        .output = OutputRule::loop,
                                        .boolean = "",
                                        .integer = "",
                                        .floating = "",
                                        .complex = ""};

const ElementwiseKernel& where_kernel(DType loop, DType out) {
    static std::mutex mutex;
    static auto& kernels = *new std::map<std::pair<DType, DType>, ElementwiseKernel>();
    const std::pair key{loop, out};
    const std::scoped_lock lock(mutex);
    auto found = kernels.find(key);
    if (found == kernels.end()) {
        ElementwiseOptions options;
        options.preamble = "#include <kiln/ufunc.h>\n";
        found =
            kernels
                .emplace(key, ElementwiseKernel("Q q, X x, Y y", std::string(name(out)) + " z",
                                                where_operation(loop, out), "kiln_where", options))
                .first;
    }
    return found->second;
}

}  // namespace

std::string where_operation(DType loop, DType out) {
    const std::string to = "kiln::ufunc::cast<" + std::string(c_type(out)) +
                           ">(kiln::ufunc::cast<" + std::string(c_type(loop)) + ">(";
    return "z = kiln::ufunc::nonzero(q) ? " + to + "x)) : " + to + "y));";
}

ndarray call_where(std::span<const Argument> args, const UfuncOptions& options) {
    const std::span<const Argument> values = args.subspan(1);
    const DType loop =
        options.dtype ? requested_loop(where_routine, values, *options.dtype) : result_type(values);
    check_scalars_fit(where_routine, values, loop, 2);
    const std::optional<Shape> shape = broadcast_shape(where_routine, args);
    std::vector<Argument> call(args.begin(), args.end());
    if (options.out) {
        check_out(where_routine, *options.out, loop, shape);
        call.emplace_back(*options.out);
    } else if (shape && !options.dtype) {
        if (auto deferred = defer_where(args, loop, *shape, options.stream)) {
            return std::move(*deferred);
        }
    }
    return run(where_kernel(loop, options.out ? options.out->dtype() : loop), call,
               shape.has_value(), options);
}

}  // namespace kiln::detail
