#include "../backend.hpp"
#include "../codegen/module_cache.hpp"
#include "../layout.hpp"
#include "../profiling.hpp"
#include "collapse.hpp"
#include "recorded_call.hpp"
#include "reduction_arguments.hpp"
#include "reduction_launch_plan.hpp"
#include "reduction_source.hpp"
#include "shared_definitions.hpp"
#include "type_binding.hpp"

#include <kiln/device.hpp>
#include <kiln/error.hpp>
#include <kiln/reduction_kernel.hpp>
#include <kiln/stream.hpp>

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace kiln::detail {

// What a ReductionKernel is: its definition, and its compiled variants per device.
class ReductionState {
public:
    ReductionState(ReductionDefinition definition, ReductionOptions options)
        : k(std::move(definition)), options(std::move(options)) {}

    [[nodiscard]] std::string prefix() const { return "kiln: ReductionKernel '" + k.name + "': "; }

    ReductionDefinition k;
    ReductionOptions options;

    // Compiled variants: (device, variant key) -> the two functions.
    struct Functions {
        NativeFunction reduce = nullptr;
        NativeFunction finish = nullptr;
        int resident_blocks = 0;  // the reduce kernel's blocks per multiprocessor
    };
    std::mutex mutex;
    std::map<std::pair<int, std::string>, Functions, std::less<>> variants;

    CallRecords calls;
};

namespace {

// One call, laid out: the output axes first, then the reduced ones, each group collapsed.
struct Plan {
    ReductionVariant variant;
    std::vector<ndarray> inputs;  // per in param; empty for scalars
    std::vector<std::array<std::byte, 16>> scalars;
    std::vector<Strides> in_out_strides;  // per in param over the output axes
    std::vector<Strides> in_reduce_strides;
    // The given outputs; empty when none were given, until allocate_outputs.
    std::vector<ndarray> outputs;
    Shape result_shape;  // the outputs' shape (keepdims included)
    std::vector<Strides> out_strides;
    Shape out_shape;  // collapsed, at least one axis
    Shape reduce_shape;
    std::int64_t m = 0;  // output elements
    std::int64_t n = 0;  // elements reduced into each
    bool reduction_contiguous =
        false;  // the first array input's innermost reduced step is one item
};

DType reduce_dtype(const ReductionState& s, const std::string& type,
                   const std::map<std::string, DType, std::less<>>& binding) {
    if (auto found = binding.find(type); found != binding.end()) {
        return found->second;
    }
    if (auto spelled = dtype_from_spelling(type)) {
        return *spelled;
    }
    throw TypeError(s.prefix() + "reduce_type '" + type + "' is not bound by the arguments");
}

// Which axes to reduce (a flag per axis); throws IndexError or Error naming the kernel.
std::vector<bool> reduced_axes(const ReductionState& s, const Axis& axis, std::size_t ndim) {
    std::vector<bool> reduced(ndim, axis.all());
    for (const int given : axis.axes()) {
        const auto rank = static_cast<int>(ndim);
        if (given < -rank || given >= rank) {
            throw IndexError(s.prefix() + "axis " + std::to_string(given) +
                             " is out of bounds for an array of dimension " + std::to_string(ndim));
        }
        const auto a = static_cast<std::size_t>(given < 0 ? given + rank : given);
        if (reduced[a]) {
            throw Error(s.prefix() + "axis " + std::to_string(given) + " is repeated");
        }
        reduced[a] = true;
    }
    return reduced;
}

std::vector<ndarray> given_outputs(const ReductionState& s, std::span<const Argument> args,
                                   const ReductionCallOptions& options) {
    const std::size_t nin = s.k.in.size();
    const std::size_t nout = s.k.out.size();
    if (args.size() != nin && args.size() != nin + nout) {
        throw TypeError(s.prefix() + "takes " + std::to_string(nin) + " inputs (then " +
                        std::to_string(nout) + " outputs, optionally), got " +
                        std::to_string(args.size()) + " arguments");
    }
    std::vector<ndarray> out;
    for (std::size_t a = nin; a < args.size(); ++a) {
        const auto* array = std::get_if<ndarray>(&args[a]);
        if (array == nullptr) {
            throw TypeError(s.prefix() + "output '" + s.k.out[a - nin].name +
                            "' must be an ndarray, got a scalar");
        }
        out.push_back(*array);
    }
    if (!options.out.empty()) {
        if (!out.empty()) {
            throw TypeError(s.prefix() + "outputs were given both as arguments and as out=");
        }
        if (options.out.size() != nout) {
            throw TypeError(s.prefix() + "out= holds " + std::to_string(options.out.size()) +
                            " arrays but the kernel has " + std::to_string(nout) + " outputs");
        }
        out = options.out;
    }
    return out;
}

Plan prepare(const ReductionState& s, std::span<const Argument> args,
             const ReductionCallOptions& options) {
    const auto& k = s.k;
    const std::size_t nin = k.in.size();
    const std::vector<ndarray> given = given_outputs(s, args, options);

    std::vector<ArgumentType> in_types;
    std::vector<ArgumentType> out_types;
    in_types.reserve(nin);
    out_types.reserve(given.size());
    for (std::size_t a = 0; a < nin; ++a) {
        if (const auto* array = std::get_if<ndarray>(&args[a])) {
            in_types.push_back({ArgumentType::array, array->dtype()});
        } else {
            in_types.push_back({ArgumentType::scalar, std::get<Scalar>(args[a]).dtype()});
        }
    }
    for (const auto& o : given) {
        out_types.push_back({ArgumentType::array, o.dtype()});
    }
    const auto binding = bind_types(k.name, k.in, k.out, in_types, out_types);

    Plan plan;
    auto& v = plan.variant;
    // Without a device there are no arrays to check, and source() still works.
    const std::optional<int> device = current_device_if_any();
    std::vector<Shape> shapes;
    for (std::size_t p = 0; p < nin; ++p) {
        const DType dtype = resolved_dtype(k.in[p], binding);
        v.in_dtypes.push_back(dtype);
        const auto* array = std::get_if<ndarray>(&args[p]);
        v.in_scalar.push_back(array == nullptr);
        plan.scalars.push_back(array == nullptr ? std::get<Scalar>(args[p]).bytes_as(dtype)
                                                : std::array<std::byte, 16>{});
        plan.inputs.push_back(array == nullptr ? ndarray() : *array);
        if (array != nullptr) {
            if (array->dtype() != dtype) {
                throw TypeError(s.prefix() + "input '" + k.in[p].name + "' is " +
                                std::string(name(array->dtype())) + " but must be " +
                                std::string(name(dtype)));
            }
            if (array->device() != device) {
                throw Error(s.prefix() + "input '" + k.in[p].name + "' is on device " +
                            std::to_string(array->device()) + " but the kernel runs on device " +
                            std::to_string(device.value_or(-1)));
            }
            shapes.push_back(array->shape());
        }
    }
    for (const auto& p : k.out) {
        v.out_dtypes.push_back(resolved_dtype(p, binding));
    }
    for (const auto& type : k.reduce_types) {
        v.reduce_dtypes.push_back(reduce_dtype(s, type, binding));
    }

    Shape shape;
    try {
        shape = broadcast_shapes(shapes);
    } catch (const ShapeError&) {
        std::string list;
        for (const auto& each : shapes) {
            list += " " + to_string(each);
        }
        throw ShapeError(s.prefix() + "inputs could not be broadcast together with shapes" + list);
    }
    (void)checked_size(shape, 1, k.name);
    const std::vector<bool> reduced = reduced_axes(s, options.axis, shape.size());

    // The result's shape, and the axes it keeps.
    Shape out_shape;
    Shape kept_shape;
    Shape reduce_shape;
    for (std::size_t a = 0; a < shape.size(); ++a) {
        if (!reduced[a]) {
            out_shape.push_back(shape[a]);
            kept_shape.push_back(shape[a]);
        } else {
            reduce_shape.push_back(shape[a]);
            if (options.keepdims) {
                out_shape.push_back(1);
            }
        }
    }
    plan.m = checked_size(kept_shape, 1);
    plan.n = checked_size(reduce_shape, 1);
    if (plan.n == 0 && plan.m > 0 && k.identity.empty()) {
        throw Error(s.prefix() + "cannot reduce zero elements: the kernel has no identity");
    }

    // Outputs: check the given ones; the missing ones are laid out C-contiguous, as empty() will
    // allocate them.
    plan.result_shape = out_shape;
    for (std::size_t o = 0; o < given.size(); ++o) {
        const ndarray& out = given[o];
        if (out.dtype() != v.out_dtypes[o]) {
            throw TypeError(s.prefix() + "output '" + k.out[o].name + "' is " +
                            std::string(name(out.dtype())) + " but must be " +
                            std::string(name(v.out_dtypes[o])));
        }
        if (out.shape() != out_shape) {
            throw ShapeError(s.prefix() + "output '" + k.out[o].name + "' has shape " +
                             to_string(out.shape()) + " but the result's shape is " +
                             to_string(out_shape));
        }
        if (out.device() != device) {
            throw Error(s.prefix() + "output '" + k.out[o].name + "' is on device " +
                        std::to_string(out.device()) + " but the kernel runs on device " +
                        std::to_string(device.value_or(-1)));
        }
        plan.outputs.push_back(out);
    }

    // Strides per group: inputs broadcast to the full shape, outputs over the kept axes.
    std::vector<Strides> kept_strides;
    std::vector<Strides> reduce_strides;
    std::int64_t extent = 0;
    for (std::size_t p = 0; p < nin; ++p) {
        if (v.in_scalar[p]) {
            continue;
        }
        const ndarray& in = plan.inputs[p];
        const auto layout = broadcast_to({in.shape(), in.strides(), 0}, shape, in.itemsize());
        Strides kept;
        Strides red;
        for (std::size_t a = 0; a < shape.size(); ++a) {
            (reduced[a] ? red : kept).push_back(layout.strides[a]);
        }
        kept_strides.push_back(std::move(kept));
        reduce_strides.push_back(std::move(red));
        const auto [low, high] = byte_extent(layout, in.itemsize());
        extent = std::max({extent, -low, high});
    }
    for (std::size_t o = 0; o < k.out.size(); ++o) {
        const std::size_t size = itemsize(v.out_dtypes[o]);
        const Layout out = plan.outputs.empty()
                               ? c_contiguous(out_shape, size)
                               : Layout{plan.outputs[o].shape(), plan.outputs[o].strides(), 0};
        Strides kept;
        for (std::size_t a = 0, axis = 0; a < shape.size(); ++a) {
            if (!reduced[a]) {
                kept.push_back(out.strides[axis]);
            }
            axis += (!reduced[a] || options.keepdims) ? 1 : 0;
        }
        kept_strides.push_back(std::move(kept));
        const auto [low, high] = byte_extent(out, size);
        extent = std::max({extent, -low, high});
    }
    Collapsed out_group = s.options.reduce_dims ? collapse_dims(kept_shape, kept_strides)
                                                : Collapsed{kept_shape, kept_strides};
    Collapsed reduce_group = s.options.reduce_dims ? collapse_dims(reduce_shape, reduce_strides)
                                                   : Collapsed{reduce_shape, reduce_strides};
    // A group without axes indexes one element: give it one axis of extent 1.
    auto at_least_one_axis = [](Collapsed& group) {
        if (group.shape.empty()) {
            group.shape = {1};
            for (auto& strides : group.strides) {
                strides = {0};
            }
        }
    };
    at_least_one_axis(out_group);
    at_least_one_axis(reduce_group);
    plan.out_shape = std::move(out_group.shape);
    plan.reduce_shape = std::move(reduce_group.shape);
    v.out_ndim = plan.out_shape.size();
    v.reduce_ndim = plan.reduce_shape.size();
    std::size_t a = 0;
    for (std::size_t p = 0; p < nin; ++p) {
        if (v.in_scalar[p]) {
            plan.in_out_strides.emplace_back();
            plan.in_reduce_strides.emplace_back();
            continue;
        }
        if (a == 0) {
            plan.reduction_contiguous = reduce_group.strides[a].back() ==
                                        static_cast<std::int64_t>(itemsize(v.in_dtypes[p]));
        }
        plan.in_out_strides.push_back(std::move(out_group.strides[a]));
        plan.in_reduce_strides.push_back(std::move(reduce_group.strides[a]));
        ++a;
    }
    for (std::size_t o = 0; o < k.out.size(); ++o) {
        plan.out_strides.push_back(std::move(out_group.strides[a + o]));
    }
    // 32-bit indices when every byte offset fits, and the element count leaves room for the
    // grid-stride step past the last output (at most the outputs again) without overflow.
    constexpr std::int64_t limit32 = std::numeric_limits<std::int32_t>::max();
    constexpr std::int64_t count32 = std::int64_t{1} << 30;
    v.index32 = plan.m * std::max<std::int64_t>(plan.n, 1) <= count32 && extent < limit32;
    return plan;
}

// Allocates the outputs the caller did not give, on the current device in the current stream's
// order, with the layout prepare planned them in.
void allocate_outputs(Plan& plan) {
    if (!plan.outputs.empty()) {
        return;
    }
    for (const DType dtype : plan.variant.out_dtypes) {
        plan.outputs.push_back(empty(plan.result_shape, dtype));
    }
}

// The run-time values of both launches.
ReductionValues launch_values(const Plan& plan, const ReductionLaunchPlan& strategy,
                              void* partial) {
    ReductionValues x;
    x.m = plan.m;
    x.n = plan.n;
    x.chunk = strategy.chunk;
    x.split = strategy.split;
    x.lanes = strategy.lanes;
    x.lanes_fast = strategy.lanes_fast;
    x.finish_lanes = strategy.finish_lanes;
    x.partial = partial;
    x.out_shape = plan.out_shape;
    x.reduce_shape = plan.reduce_shape;
    for (std::size_t p = 0; p < plan.inputs.size(); ++p) {
        x.inputs.push_back({plan.inputs[p].data(), plan.in_out_strides[p],
                            plan.in_reduce_strides[p], plan.scalars[p]});
    }
    for (std::size_t o = 0; o < plan.outputs.size(); ++o) {
        x.outputs.push_back({plan.outputs[o].data(), plan.out_strides[o]});
    }
    return x;
}

}  // namespace

}  // namespace kiln::detail

namespace kiln {

ReductionKernel::ReductionKernel(const std::string& in_params, const std::string& out_params,
                                 std::string map_expr, std::string reduce_expr,
                                 std::string post_map_expr, std::string identity, std::string name,
                                 const ReductionOptions& options) {
    // Never destroyed: kernel objects may outlive static destruction.
    static auto* shared = new detail::SharedDefinitions<detail::ReductionState>();
    detail::DefinitionKey key;
    key.add(in_params).add(out_params).add(map_expr).add(reduce_expr).add(post_map_expr);
    key.add(identity).add(name).add(options.reduce_type).add_flag(options.reduce_dims);
    key.add(options.preamble).add(options.options);
    state_ = shared->get(key, [&] {
        return std::make_shared<detail::ReductionState>(
            detail::define_reduction(in_params, out_params, std::move(map_expr),
                                     std::move(reduce_expr), std::move(post_map_expr),
                                     std::move(identity), std::move(name), options.reduce_type,
                                     options.preamble),
            options);
    });
}

ReductionKernel::~ReductionKernel() = default;
ReductionKernel::ReductionKernel(const ReductionKernel&) = default;
ReductionKernel& ReductionKernel::operator=(const ReductionKernel&) = default;
ReductionKernel::ReductionKernel(ReductionKernel&&) noexcept = default;
ReductionKernel& ReductionKernel::operator=(ReductionKernel&&) noexcept = default;

const std::string& ReductionKernel::name() const noexcept {
    return state_->k.name;
}

ndarray ReductionKernel::operator()(std::initializer_list<Argument> args,
                                    const ReductionCallOptions& options) const {
    if (state_->k.out.size() != 1) {
        throw TypeError(state_->prefix() + "has " + std::to_string(state_->k.out.size()) +
                        " outputs; call outputs() to get them all");
    }
    return outputs(std::span<const Argument>(args.begin(), args.size()), options).front();
}

std::string ReductionKernel::source(std::span<const Argument> args,
                                    const ReductionCallOptions& options) const {
    return detail::reduction_source(state_->k, detail::prepare(*state_, args, options).variant);
}

std::vector<ndarray> ReductionKernel::outputs(std::span<const Argument> args,
                                              const ReductionCallOptions& options) const {
    auto& s = *state_;
    const StreamView stream = options.stream.value_or(current_stream());
    detail::CallSignature signature;
    const std::optional<int> device = detail::current_device_if_any();
    if (device) {
        signature = detail::CallSignature(*device, args);
        signature.add(options.axis.all() ? -1
                                         : static_cast<std::int64_t>(options.axis.axes().size()));
        for (const int axis : options.axis.axes()) {
            signature.add(axis);
        }
        signature.add(options.keepdims ? 1 : 0);
        signature.add(static_cast<std::int64_t>(options.out.size()));
        for (const ndarray& out : options.out) {
            signature.add(out);
        }
        if (const auto recorded = s.calls.find(signature)) {
            return detail::replay(*recorded, args, options.out, stream);
        }
    }
    // Outputs and partials are allocated in the launch stream's order.
    const StreamGuard guard(stream);
    detail::Plan plan = detail::prepare(s, args, options);
    detail::allocate_outputs(plan);
    const auto& v = plan.variant;
    auto recorded = std::make_shared<detail::RecordedCall>();
    recorded->kernel = s.k.name;
    recorded->signature = signature;
    recorded->inputs = s.k.in.size();
    recorded->operand_dtypes = v.in_dtypes;
    recorded->operand_dtypes.insert(recorded->operand_dtypes.end(), v.out_dtypes.begin(),
                                    v.out_dtypes.end());
    recorded->output_shape = plan.outputs.front().shape();
    if (plan.m == 0) {
        if (device) {
            s.calls.add(std::move(recorded));
        }
        return plan.outputs;
    }
    auto& gpu = detail::backend();
    std::pair<int, std::string> key{gpu.current_device(), detail::variant_key(v)};
    detail::ReductionState::Functions functions;
    {
        const std::scoped_lock lock(s.mutex);
        if (auto found = s.variants.find(key); found != s.variants.end()) {
            functions = found->second;
        }
    }
    if (functions.reduce == nullptr) {
        const std::string source = detail::reduction_source(s.k, v);
        functions.reduce = detail::cached_function(source, s.k.name, s.options.options);
        functions.finish =
            detail::cached_function(source, detail::finish_name(s.k), s.options.options);
        functions.resident_blocks =
            gpu.max_active_blocks_per_multiprocessor(functions.reduce, detail::reduction_block, 0);
        const std::scoped_lock lock(s.mutex);
        s.variants.emplace(std::move(key), functions);
    }

    const auto strategy = detail::plan_reduction_launch(
        {plan.m, plan.n, plan.reduction_contiguous},
        {Device::current().properties().multiprocessor_count, functions.resident_blocks});
    ndarray partials;
    if (strategy.split > 1) {
        const auto bytes = static_cast<std::int64_t>(detail::reduce_type_size(v.reduce_dtypes));
        recorded->scratch_bytes = plan.m * strategy.split * bytes;
        partials = empty({recorded->scratch_bytes}, uint8);
    }
    const detail::ProfileRange range(s.k.name.c_str());
    const detail::ReductionValues values =
        detail::launch_values(plan, strategy, strategy.split > 1 ? partials.data() : nullptr);
    constexpr unsigned block = detail::reduction_block;
    auto launch = [&](detail::NativeFunction function, detail::Dim3 grid,
                      detail::ArgumentPack arguments) {
        gpu.launch(function, {grid, {block, 1, 1}, 0, stream.native()}, arguments.pointers());
        recorded->launches.push_back({function, grid, {block, 1, 1}, 0, std::move(arguments)});
    };
    launch(functions.reduce,
           {static_cast<unsigned>(strategy.blocks), static_cast<unsigned>(strategy.split), 1},
           detail::reduce_arguments(v, values));
    if (strategy.split > 1) {
        launch(functions.finish, {static_cast<unsigned>(strategy.finish_blocks), 1, 1},
               detail::finish_arguments(v, values));
    }
    if (device) {
        s.calls.add(std::move(recorded));
    }
    return plan.outputs;
}

}  // namespace kiln
