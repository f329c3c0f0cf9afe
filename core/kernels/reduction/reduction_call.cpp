#include "reduction_call.hpp"

#include "reduction_dialect.hpp"

#include "../../array/array_memory.hpp"
#include "../../layout.hpp"
#include "../call_checks.hpp"
#include "../collapse.hpp"
#include "../recorded_call.hpp"

#include <kiln/error.hpp>

#include <algorithm>
#include <map>
#include <optional>

namespace kiln::detail {

namespace {

using Binding = std::map<std::string, DType, std::less<>>;

// The call's shape: which axes it reduces, the kept and reduced extents and the result's shape.
struct AxesSplit {
    Shape shape;  // the inputs broadcast together
    std::vector<bool> reduced;
    Shape kept;
    Shape reduce;
};

DType reduce_dtype(const ReductionDefinition& k, const std::string& type, const Binding& binding) {
    if (auto found = binding.find(type); found != binding.end()) {
        return found->second;
    }
    if (auto spelled = dtype_from_spelling(type)) {
        return *spelled;
    }
    throw TypeError(reduction_prefix(k) + "reduce_type '" + type +
                    "' is not bound by the arguments");
}

// The outputs given as arguments or as out= (not both); none, or one per output.
std::vector<ndarray> given_outputs(const ReductionDefinition& k, std::span<const Argument> args,
                                   const ReductionCallOptions& options) {
    const std::string prefix = reduction_prefix(k);
    std::vector<ndarray> outputs = output_arguments(prefix, k.in, k.out, args);
    if (options.out.empty()) {
        return outputs;
    }
    if (!outputs.empty()) {
        throw TypeError(prefix + "outputs were given both as arguments and as out=");
    }
    if (options.out.size() != k.out.size()) {
        throw TypeError(prefix + "out= holds " + std::to_string(options.out.size()) +
                        " arrays but the kernel has " + std::to_string(k.out.size()) + " outputs");
    }
    return options.out;
}

// The dtypes of every parameter and reduce type member, the inputs and scalars; returns the
// shapes of the array inputs.
std::vector<Shape> bind_inputs(const ReductionDefinition& k, std::span<const Argument> args,
                               const Binding& binding, std::optional<int> device,
                               ReductionCall& call) {
    auto& v = call.variant;
    std::vector<Shape> shapes;
    for (std::size_t p = 0; p < k.in.size(); ++p) {
        const DType dtype = resolved_dtype(k.in[p], binding);
        v.in_dtypes.push_back(dtype);
        const auto* array = std::get_if<ndarray>(&args[p]);
        v.in_scalar.push_back(array == nullptr);
        call.scalars.push_back(array == nullptr ? std::get<Scalar>(args[p]).bytes_as(dtype)
                                                : std::array<std::byte, 16>{});
        call.inputs.push_back(array == nullptr ? ndarray() : *array);
        if (array != nullptr) {
            check_array(reduction_prefix(k), "input", k.in[p].name, *array, dtype, device);
            shapes.push_back(array->shape());
        }
    }
    for (const auto& p : k.out) {
        v.out_dtypes.push_back(resolved_dtype(p, binding));
    }
    for (const auto& type : k.reduce_types) {
        v.reduce_dtypes.push_back(reduce_dtype(k, type, binding));
    }
    return shapes;
}

// Which axes to reduce (a flag per axis); throws IndexError or Error naming the kernel.
std::vector<bool> reduced_axes(const ReductionDefinition& k, const Axis& axis, std::size_t ndim) {
    std::vector<bool> reduced(ndim, axis.all());
    for (const int given : axis.axes()) {
        const auto rank = static_cast<int>(ndim);
        if (given < -rank || given >= rank) {
            throw IndexError(reduction_prefix(k) + "axis " + std::to_string(given) +
                             " is out of bounds for an array of dimension " + std::to_string(ndim));
        }
        const auto a = static_cast<std::size_t>(given < 0 ? given + rank : given);
        if (reduced[a]) {
            throw Error(reduction_prefix(k) + "axis " + std::to_string(given) + " is repeated");
        }
        reduced[a] = true;
    }
    return reduced;
}

// Splits the broadcast shape into kept and reduced axes; sets the result's shape, m and n.
AxesSplit split_axes(const ReductionDefinition& k, const std::vector<Shape>& shapes,
                     const ReductionCallOptions& options, ReductionCall& call) {
    AxesSplit axes;
    axes.shape = broadcast_arguments(reduction_prefix(k), shapes, "inputs");
    (void)checked_size(axes.shape, 1, k.name);
    axes.reduced = reduced_axes(k, options.axis, axes.shape.size());
    for (std::size_t a = 0; a < axes.shape.size(); ++a) {
        if (!axes.reduced[a]) {
            call.result_shape.push_back(axes.shape[a]);
            axes.kept.push_back(axes.shape[a]);
        } else {
            axes.reduce.push_back(axes.shape[a]);
            if (options.keepdims) {
                call.result_shape.push_back(1);
            }
        }
    }
    call.m = checked_size(axes.kept, 1);
    call.n = checked_size(axes.reduce, 1);
    if (call.n == 0 && call.m > 0 && k.identity.empty()) {
        throw Error(reduction_prefix(k) +
                    "cannot reduce zero elements: the kernel has no identity");
    }
    return axes;
}

// A group without axes indexes one element: give it one axis of extent 1.
void at_least_one_axis(Collapsed& group) {
    if (group.shape.empty()) {
        group.shape = {1};
        for (auto& strides : group.strides) {
            strides = {0};
        }
    }
}

}  // namespace

ReductionLayout input_layout(const ReductionCall& call) {
    const auto& v = call.variant;
    bool rows = v.reduce_ndim == 1;
    bool columns = true;
    bool any = false;
    for (std::size_t p = 0; p < v.in_scalar.size(); ++p) {
        if (v.in_scalar[p]) {
            continue;
        }
        const auto item = static_cast<std::int64_t>(itemsize(v.in_dtypes[p]));
        any = true;
        rows = rows && call.in_reduce_strides[p].back() == item;
        columns = columns && call.in_out_strides[p].back() == item;
    }
    if (!any) {
        return ReductionLayout::strided;
    }
    if (rows) {
        return ReductionLayout::rows;
    }
    return columns ? ReductionLayout::columns : ReductionLayout::strided;
}

namespace {

// The collapsed strides of every array over the kept axes and over the reduced axes, and the
// index width. Missing outputs are laid out C-contiguous, as empty() allocates them.
void lay_out(const ReductionDefinition& k, const AxesSplit& axes, bool keepdims,
             ReductionCall& call) {
    auto& v = call.variant;
    std::vector<Strides> kept_strides;
    std::vector<Strides> reduce_strides;
    std::int64_t extent = 0;
    for (std::size_t p = 0; p < k.in.size(); ++p) {
        if (v.in_scalar[p]) {
            continue;
        }
        const ndarray& in = call.inputs[p];
        const auto layout = broadcast_to({in.shape(), in.strides(), 0}, axes.shape, in.itemsize());
        Strides kept;
        Strides red;
        for (std::size_t a = 0; a < axes.shape.size(); ++a) {
            (axes.reduced[a] ? red : kept).push_back(layout.strides[a]);
        }
        kept_strides.push_back(std::move(kept));
        reduce_strides.push_back(std::move(red));
        const auto [low, high] = byte_extent(layout, in.itemsize());
        extent = std::max({extent, -low, high});
    }
    for (std::size_t o = 0; o < k.out.size(); ++o) {
        const std::size_t size = itemsize(v.out_dtypes[o]);
        const Layout out = call.outputs.empty()
                               ? c_contiguous(call.result_shape, size)
                               : Layout{call.outputs[o].shape(), call.outputs[o].strides(), 0};
        Strides kept;
        for (std::size_t a = 0, axis = 0; a < axes.shape.size(); ++a) {
            if (!axes.reduced[a]) {
                kept.push_back(out.strides[axis]);
            }
            axis += (!axes.reduced[a] || keepdims) ? 1 : 0;
        }
        kept_strides.push_back(std::move(kept));
        const auto [low, high] = byte_extent(out, size);
        extent = std::max({extent, -low, high});
    }
    Collapsed out_group =
        k.reduce_dims ? collapse_dims(axes.kept, kept_strides) : Collapsed{axes.kept, kept_strides};
    Collapsed reduce_group = k.reduce_dims ? collapse_dims(axes.reduce, reduce_strides)
                                           : Collapsed{axes.reduce, reduce_strides};
    at_least_one_axis(out_group);
    at_least_one_axis(reduce_group);
    call.out_shape = std::move(out_group.shape);
    call.reduce_shape = std::move(reduce_group.shape);
    v.out_ndim = call.out_shape.size();
    v.reduce_ndim = call.reduce_shape.size();
    std::size_t a = 0;
    for (std::size_t p = 0; p < k.in.size(); ++p) {
        if (v.in_scalar[p]) {
            call.in_out_strides.emplace_back();
            call.in_reduce_strides.emplace_back();
            continue;
        }
        if (a == 0) {
            call.reduction_contiguous = reduce_group.strides[a].back() ==
                                        static_cast<std::int64_t>(itemsize(v.in_dtypes[p]));
        }
        call.in_out_strides.push_back(std::move(out_group.strides[a]));
        call.in_reduce_strides.push_back(std::move(reduce_group.strides[a]));
        ++a;
    }
    for (std::size_t o = 0; o < k.out.size(); ++o) {
        call.out_strides.push_back(std::move(out_group.strides[a + o]));
    }
    // The grid-stride step past the last output is at most the outputs again.
    v.index32 = fits_32_bit_indices(call.m * std::max<std::int64_t>(call.n, 1), extent);
    v.layout = dialect_of(v).reduction.layout(call);
}

}  // namespace

ReductionCall prepare_reduction(const ReductionDefinition& k, std::span<const Argument> args,
                                const ReductionCallOptions& options, std::optional<int> device) {
    const std::vector<ndarray> given = given_outputs(k, args, options);
    const Binding binding = bind_arguments(k.name, k.in, k.out, args, given);
    ReductionCall call;
    call.variant.dialect = &active_kernel_dialect();
    const std::vector<Shape> shapes = bind_inputs(k, args, binding, device, call);
    const AxesSplit axes = split_axes(k, shapes, options, call);
    for (std::size_t o = 0; o < given.size(); ++o) {
        check_array(reduction_prefix(k), "output", k.out[o].name, given[o],
                    call.variant.out_dtypes[o], device);
        check_output_shape(reduction_prefix(k), k.out[o].name, given[o], call.result_shape);
    }
    call.outputs = given;
    lay_out(k, axes, options.keepdims, call);
    return call;
}

void allocate_reduction_outputs(ReductionCall& call, StreamView stream) {
    if (!call.outputs.empty()) {
        return;
    }
    for (const DType dtype : call.variant.out_dtypes) {
        call.outputs.push_back(empty_on(call.result_shape, dtype, stream));
    }
}

ReductionValues reduction_values(const ReductionCall& call, const ReductionLaunchPlan& plan,
                                 void* partial) {
    ReductionValues x;
    x.m = call.m;
    x.n = call.n;
    x.chunk = plan.chunk;
    x.split = plan.split;
    x.lanes = plan.lanes;
    x.lanes_fast = plan.lanes_fast;
    x.finish_lanes = plan.finish_lanes;
    x.partial = partial;
    x.out_shape = call.out_shape;
    x.reduce_shape = call.reduce_shape;
    for (std::size_t p = 0; p < call.inputs.size(); ++p) {
        x.inputs.push_back({call.inputs[p].data(), call.in_out_strides[p],
                            call.in_reduce_strides[p], call.scalars[p]});
    }
    for (std::size_t o = 0; o < call.outputs.size(); ++o) {
        x.outputs.push_back({call.outputs[o].data(), call.out_strides[o]});
    }
    return x;
}

}  // namespace kiln::detail
