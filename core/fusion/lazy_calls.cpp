// The switch of include/kiln/lazy.hpp and the routines' entries of
// core/routines/deferred_calls.hpp: which calls are deferred, on which stream, and when an
// expression is long enough to run.
#include "../array/array_memory.hpp"
#include "../call_context.hpp"
#include "../env.hpp"
#include "../routines/deferred_calls.hpp"
#include "lazy_expression.hpp"
#include "lazy_kernels.hpp"

#include <kiln/error.hpp>
#include <kiln/lazy.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace kiln {

namespace {

// -1 until read from KILN_LAZY, then 0 or 1.
std::atomic<int> lazy_state{-1};

int lazy_from_environment() {
    const auto text = detail::env::get("KILN_LAZY");
    if (!text || *text == "1") {
        return 1;
    }
    if (*text == "0") {
        return 0;
    }
    throw Error("kiln: KILN_LAZY is '" + *text + "'; expected 0 (off) or 1 (on)");
}

}  // namespace

void set_lazy_fusion(bool enabled) {
    lazy_state.store(enabled ? 1 : 0);
}

bool lazy_fusion() {
    int state = lazy_state.load(std::memory_order_relaxed);
    if (state < 0) {
        int unread = -1;
        (void)lazy_state.compare_exchange_strong(unread, lazy_from_environment());
        state = lazy_state.load();
    }
    return state == 1;
}

LazyFusionScope::LazyFusionScope(bool enabled) : previous_(lazy_fusion()) {
    set_lazy_fusion(enabled);
}

LazyFusionScope::~LazyFusionScope() {
    set_lazy_fusion(previous_);
}

namespace detail {

namespace {

// The length of an expression of `operation` alone, its operands computed.
LazyLength alone(const LazyOperation& operation) {
    LazyLength length;
    for (const Argument& operand : operation.operands) {
        ++(std::holds_alternative<ndarray>(operand) ? length.arrays : length.scalars);
    }
    return length;
}

// The result's shape and strides: an operand's where they are the result's own (as in x + y of
// two arrays alike), so that deferring allocates no new ones.
std::shared_ptr<const ArrayGeometry> shared_geometry(const LazyOperation& operation,
                                                     const Shape& shape, DType dtype) {
    for (const Argument& operand : operation.operands) {
        const auto* array = std::get_if<ndarray>(&operand);
        if (array != nullptr && array->shape() == shape &&
            has_c_contiguous_strides(shape, array->strides(), itemsize(dtype))) {
            return array->shared_geometry();
        }
    }
    return c_contiguous_geometry(shape, itemsize(dtype));
}

std::optional<ndarray> defer(std::shared_ptr<const LazyOperation> made, std::string_view function,
                             const Shape& shape, std::optional<StreamView> given) {
    const LazyOperation& operation = *made;
    std::optional<int> device;
    for (const Argument& operand : operation.operands) {
        if (const auto* array = std::get_if<ndarray>(&operand)) {
            if (device && *device != array->device()) {
                return std::nullopt;  // eagerly: peer access, or the error naming the devices
            }
            device = array->device();
        }
    }
    if (!device) {
        return std::nullopt;
    }
    StreamView stream;
    try {
        stream = call_context(function, given, device);
    } catch (const Error&) {
        return std::nullopt;  // the eager call gives its own message
    }
    if (stream.device() != *device) {
        return std::nullopt;
    }
    // An operand deferred on another stream runs there, as it would have eagerly.
    LazyLength length;
    std::vector<std::shared_ptr<LazyExpression>> inlined;
    for (const Argument& operand : operation.operands) {
        const auto* array = std::get_if<ndarray>(&operand);
        auto expression = array != nullptr ? LazyExpression::pending_of(*array) : nullptr;
        if (expression && !same_stream(expression->stream(), stream)) {
            (void)expression->memory();
            expression = nullptr;
        }
        if (expression) {
            const LazyLength inner = expression->length();
            length.operations += inner.operations;
            length.arrays += inner.arrays;
            length.scalars += inner.scalars;
            inlined.push_back(std::move(expression));
        } else {
            ++(array != nullptr ? length.arrays : length.scalars);
        }
    }
    if (length.operations > max_lazy_length.operations || length.arrays > max_lazy_length.arrays ||
        length.scalars > max_lazy_length.scalars) {
        for (const auto& expression : inlined) {
            (void)expression->memory();
        }
        length = alone(operation);
    }
    const DType dtype = operation.dtype;
    auto geometry = shared_geometry(operation, shape, dtype);
    return ndarray(LazyExpression::make(std::move(made), shape, stream, length), dtype,
                   std::move(geometry), *device);
}

bool valid_axes(const Axis& axis, std::int64_t ndim) {
    std::vector<std::int64_t> seen;
    for (const int given : axis.axes()) {
        const std::int64_t normal = given < 0 ? given + ndim : given;
        if (normal < 0 || normal >= ndim ||
            std::find(seen.begin(), seen.end(), normal) != seen.end()) {
            return false;
        }
        seen.push_back(normal);
    }
    return true;
}

// Whether every array a fused reduction reads is laid out as the computed array of `shape` (C
// order, no broadcast): the reduction's strategy, so its order of combining, follows its inputs'
// layouts, and only then is it the eager one's over the computed array.
bool same_layout(std::span<const Argument> arguments, const Shape& shape) {
    return std::all_of(arguments.begin(), arguments.end(), [&](const Argument& argument) {
        const auto* array = std::get_if<ndarray>(&argument);
        return array == nullptr || (array->shape() == shape && array->c_contiguous());
    });
}

}  // namespace

std::optional<ndarray> defer_ufunc(const UfuncDefinition& ufunc, std::span<const Argument> args,
                                   DType loop, DType result, const Shape& shape,
                                   std::optional<StreamView> stream) {
    if (!lazy_fusion()) {
        return std::nullopt;  // before the operands are copied
    }
    // Made where it stays: its operands are held inline, so a move would copy them one by one.
    auto operation = std::make_shared<LazyOperation>();
    operation->kind = NodeKind::ufunc;
    operation->ufunc = &ufunc;
    operation->loop = loop;
    operation->dtype = result;
    operation->operands.assign(args.begin(), args.end());
    return defer(std::move(operation), ufunc.name, shape, stream);
}

std::optional<ndarray> defer_where(std::span<const Argument> args, DType loop, const Shape& shape,
                                   std::optional<StreamView> stream) {
    if (!lazy_fusion()) {
        return std::nullopt;  // before the operands are copied
    }
    auto operation = std::make_shared<LazyOperation>();
    operation->kind = NodeKind::where;
    operation->loop = loop;
    operation->dtype = loop;
    operation->operands.assign(args.begin(), args.end());
    return defer(std::move(operation), "where", shape, stream);
}

std::optional<ndarray> defer_astype(const ndarray& a, DType dtype) {
    if (!lazy_fusion()) {
        return std::nullopt;  // before the operands are copied
    }
    auto operation = std::make_shared<LazyOperation>();
    operation->kind = NodeKind::astype;
    operation->loop = a.dtype();
    operation->dtype = dtype;
    operation->operands.emplace_back(a);
    return defer(std::move(operation), "astype", a.shape(), std::nullopt);
}

std::optional<ndarray> fused_reduction(const ReductionRoutine& routine, const ndarray& a,
                                       DType accumulator, DType result,
                                       const ReductionCallOptions& options,
                                       const std::optional<Scalar>& parameter) {
    if (!lazy_fusion() || a.size() == 0 || !valid_axes(options.axis, a.ndim())) {
        return std::nullopt;
    }
    const auto expression = LazyExpression::pending_of(a);
    const auto operation = expression ? expression->operation() : nullptr;
    if (!operation) {
        return std::nullopt;
    }
    try {
        if (!same_stream(call_context(routine.name, options.stream, a.device()),
                         expression->stream())) {
            return std::nullopt;
        }
    } catch (const Error&) {
        return std::nullopt;
    }
    LazyGraph graph;
    Node reduction;
    reduction.kind = NodeKind::reduction;
    reduction.routine = &routine;
    reduction.operands[0] = graph.add(*operation);
    if (!same_layout(graph.arguments(), a.shape())) {
        return std::nullopt;
    }
    if (parameter) {
        reduction.operands[1] = graph.add(Argument(*parameter));
    }
    reduction.loop = accumulator;
    reduction.dtype = result;
    reduction.all_axes = options.axis.all();
    reduction.axes.assign(options.axis.axes().begin(), options.axis.axes().end());
    reduction.keepdims = options.keepdims;
    const std::int32_t output = graph.graph().add(reduction);
    const ThreadActivity computing(ThreadActivity::Kind::computing);
    return run_lazy(graph.graph(), output, graph.arguments(), expression->stream(), options);
}

}  // namespace detail

}  // namespace kiln
