#include "../backend.hpp"
#include "../codegen/module_cache.hpp"
#include "../layout.hpp"
#include "../profiling.hpp"
#include "collapse.hpp"
#include "elementwise_arguments.hpp"
#include "elementwise_launch.hpp"
#include "elementwise_variant.hpp"
#include "recorded_call.hpp"
#include "shared_definitions.hpp"
#include "type_binding.hpp"

#include <kiln/device.hpp>
#include <kiln/elementwise_kernel.hpp>
#include <kiln/error.hpp>
#include <kiln/stream.hpp>

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace kiln::detail {

// What an ElementwiseKernel is: its parsed definition, and its compiled variants per device.
class ElementwiseState {
public:
    ElementwiseState(const std::string& in_params, const std::string& out_params,
                     std::string operation, std::string name, ElementwiseOptions options)
        : definition(in_params, out_params, std::move(operation), std::move(name),
                     std::move(options)) {}

    ElementwiseDefinition definition;

    // Compiled variants: (device, variant key) -> function, so that a repeated call neither
    // generates nor hashes source.
    std::mutex mutex;
    std::map<std::pair<int, std::string>, NativeFunction, std::less<>> variants;

    CallRecords calls;
};

namespace {

// One call, resolved: its variant and the values it passes. Missing outputs are not allocated
// yet: the variant describes them as the C-contiguous arrays allocate_outputs() makes.
struct Call {
    ElementwiseVariant variant;
    CallValues values;
    Shape shape;                  // the broadcast shape, before collapsing
    std::vector<ndarray> arrays;  // per operand: passed or allocated; a default one for scalars
    bool outputs_given = false;
};

std::string fail_prefix(const ElementwiseDefinition& k) {
    return "kiln: ElementwiseKernel '" + k.name + "': ";
}

const ParamSpec& param(const ElementwiseDefinition& k, std::size_t p) {
    return p < k.in.size() ? k.in[p] : k.out[p - k.in.size()];
}

// Binds the placeholders: the dtype of every operand, in_params then out_params.
std::vector<DType> operand_dtypes(const ElementwiseDefinition& k, std::span<const Argument> args) {
    const std::size_t nin = k.in.size();
    const std::size_t nout = k.out.size();
    if (args.size() != nin && args.size() != nin + nout) {
        throw TypeError(fail_prefix(k) + "takes " + std::to_string(nin) + " inputs (then " +
                        std::to_string(nout) + " outputs, optionally), got " +
                        std::to_string(args.size()) + " arguments");
    }
    std::vector<ArgumentType> in_types;
    std::vector<ArgumentType> out_types;
    for (std::size_t a = 0; a < args.size(); ++a) {
        ArgumentType type{ArgumentType::absent, DType::bool_};
        if (const auto* array = std::get_if<ndarray>(&args[a])) {
            type = {ArgumentType::array, array->dtype()};
        } else {
            type = {ArgumentType::scalar, std::get<Scalar>(args[a]).dtype()};
            if (a >= nin) {
                throw TypeError(fail_prefix(k) + "output '" + k.out[a - nin].name +
                                "' must be an ndarray, got a scalar");
            }
        }
        (a < nin ? in_types : out_types).push_back(type);
    }
    const auto binding = bind_types(k.name, k.in, k.out, in_types, out_types);
    std::vector<DType> dtypes;
    for (std::size_t p = 0; p < nin + nout; ++p) {
        dtypes.push_back(resolved_dtype(param(k, p), binding));
    }
    return dtypes;
}

// The iteration shape: the non-raw arrays broadcast together, or size= when every array is raw.
Shape iteration_shape(const ElementwiseDefinition& k, const std::vector<Shape>& shapes,
                      const CallOptions& options) {
    if (!shapes.empty()) {
        if (options.size) {
            throw Error(fail_prefix(k) + "size= is only allowed when every array argument is raw");
        }
        try {
            return broadcast_shapes(shapes);
        } catch (const ShapeError&) {
            std::string list;
            for (const auto& s : shapes) {
                list += " " + to_string(s);
            }
            throw ShapeError(fail_prefix(k) +
                             "arguments could not be broadcast together with shapes" + list);
        }
    }
    if (!options.size) {
        throw Error(fail_prefix(k) + "every array argument is raw, so the call needs size=");
    }
    if (*options.size < 0) {
        throw Error(fail_prefix(k) + "size must be non-negative, got " +
                    std::to_string(*options.size));
    }
    return {*options.size};
}

// Checks every array's dtype and every given output's shape against the call.
void check_arrays(const ElementwiseDefinition& k, const Call& call) {
    for (std::size_t p = 0; p < call.arrays.size(); ++p) {
        const OperandVariant& op = call.variant.operands[p];
        const ndarray& array = call.arrays[p];
        const bool output = p >= k.in.size();
        if (op.kind == OperandVariant::Kind::scalar || (output && !call.outputs_given)) {
            continue;
        }
        if (array.dtype() != op.dtype && (output || op.kind == OperandVariant::Kind::array)) {
            throw TypeError(fail_prefix(k) + (output ? "output '" : "input '") + param(k, p).name +
                            "' is " + std::string(kiln::name(array.dtype())) + " but must be " +
                            std::string(kiln::name(op.dtype)));
        }
        if (output && op.kind == OperandVariant::Kind::array && array.shape() != call.shape) {
            throw ShapeError(fail_prefix(k) + "output '" + param(k, p).name + "' has shape " +
                             to_string(array.shape()) + " but the result's shape is " +
                             to_string(call.shape));
        }
    }
}

// Resolves a call without touching device memory: types, shapes, layouts and the variant.
Call prepare(const ElementwiseDefinition& k, std::span<const Argument> args,
             const CallOptions& options) {
    const std::vector<DType> dtypes = operand_dtypes(k, args);
    const std::size_t count = dtypes.size();
    Call call;
    call.outputs_given = args.size() == count;
    call.arrays.resize(count);
    call.values.operands.resize(count);
    std::optional<int> device;
    std::vector<Shape> shapes;
    for (std::size_t p = 0; p < count; ++p) {
        OperandVariant op{param(k, p).raw ? OperandVariant::Kind::raw : OperandVariant::Kind::array,
                          dtypes[p]};
        if (p < args.size()) {
            if (const auto* scalar = std::get_if<Scalar>(&args[p])) {
                op.kind = OperandVariant::Kind::scalar;
                call.values.operands[p].scalar = scalar->bytes_as(op.dtype);
            } else {
                const auto& array = std::get<ndarray>(args[p]);
                if (!device) {
                    device = backend().current_device();
                }
                if (array.device() != *device) {
                    throw Error(fail_prefix(k) + "argument '" + param(k, p).name +
                                "' is on device " + std::to_string(array.device()) +
                                " but the kernel runs on device " + std::to_string(*device));
                }
                call.arrays[p] = array;
                if (op.kind == OperandVariant::Kind::array) {
                    shapes.push_back(array.shape());
                }
            }
        }
        call.variant.operands.push_back(op);
    }
    call.shape = iteration_shape(k, shapes, options);
    check_arrays(k, call);

    // Layout: broadcast strides (missing outputs are C-contiguous), then collapse.
    std::vector<Strides> strides;
    std::int64_t extent = 0;
    for (std::size_t p = 0; p < count; ++p) {
        OperandVariant& op = call.variant.operands[p];
        if (op.kind == OperandVariant::Kind::scalar) {
            continue;
        }
        const std::size_t size = itemsize(op.dtype);
        const bool given = p < args.size();
        const Layout own = given ? Layout{call.arrays[p].shape(), call.arrays[p].strides(), 0}
                                 : c_contiguous(call.shape, size);
        OperandValue& value = call.values.operands[p];
        value.data = given ? call.arrays[p].data() : nullptr;
        if (op.kind == OperandVariant::Kind::array) {
            const Layout layout = broadcast_to(own, call.shape, size);
            strides.push_back(layout.strides);
            const auto [low, high] = byte_extent(layout, size);
            extent = std::max({extent, -low, high});
        } else {
            op.raw_contiguous = is_c_contiguous(own, size);
            if (!op.raw_contiguous) {
                op.raw_ndim = static_cast<int>(own.shape.size());
                value.shape = own.shape;
                value.strides = own.strides;
            }
            const auto [low, high] = byte_extent(own, size);
            extent = std::max({extent, -low, high});
        }
    }
    call.values.size = checked_size(call.shape, 1);
    Collapsed collapsed =
        k.options.reduce_dims ? collapse_dims(call.shape, strides) : Collapsed{call.shape, strides};
    call.variant.ndim = static_cast<int>(collapsed.shape.size());
    call.values.shape = std::move(collapsed.shape);
    std::size_t s = 0;
    for (std::size_t p = 0; p < count; ++p) {
        const OperandVariant& op = call.variant.operands[p];
        if (op.kind == OperandVariant::Kind::array) {
            Strides& op_strides = call.values.operands[p].strides;
            op_strides = std::move(collapsed.strides[s++]);
            call.variant.contiguous =
                call.variant.contiguous && call.values.shape.size() <= 1 &&
                (call.values.shape.empty() ||
                 op_strides[0] == static_cast<std::int64_t>(itemsize(op.dtype)));
        }
    }
    // 32-bit indices when every byte offset fits, and the element count leaves room for a
    // grid-stride step past the end without overflow: a step is at most 4 elements for each of
    // a grid's threads (64 blocks of 256 per multiprocessor), far below 2^30.
    constexpr std::int64_t limit32 = std::numeric_limits<std::int32_t>::max();
    constexpr std::int64_t count32 = std::int64_t{1} << 30;
    call.variant.index32 = call.values.size <= count32 && extent < limit32;
    return call;
}

// Allocates the outputs the call did not pass, as prepare() described them.
void allocate_outputs(const ElementwiseDefinition& k, Call& call) {
    if (call.outputs_given) {
        return;
    }
    for (std::size_t p = k.in.size(); p < call.arrays.size(); ++p) {
        call.arrays[p] = empty(call.shape, call.variant.operands[p].dtype);
        call.values.operands[p].data = call.arrays[p].data();
    }
}

// Allocates the missing outputs, then compiles (once per device and variant) and launches.
// Returns what it did, for later calls of the same layout to replay.
std::shared_ptr<RecordedCall> run(ElementwiseState& state, Call& call, StreamView stream) {
    const ElementwiseDefinition& k = state.definition;
    auto recorded = std::make_shared<RecordedCall>();
    recorded->kernel = k.name;
    recorded->inputs = k.in.size();
    for (const OperandVariant& op : call.variant.operands) {
        recorded->operand_dtypes.push_back(op.dtype);
    }
    recorded->output_shape = call.shape;
    // Outputs are allocated in the launch stream's order.
    const StreamGuard guard(stream);
    allocate_outputs(k, call);
    if (call.values.size == 0) {
        return recorded;
    }
    std::pair<int, std::string> key{backend().current_device(), variant_key(call.variant)};
    void* function = nullptr;
    {
        const std::scoped_lock lock(state.mutex);
        if (auto found = state.variants.find(key); found != state.variants.end()) {
            function = found->second;
        }
    }
    if (function == nullptr) {
        function = cached_function(elementwise_source(k, call.variant), k.name, k.options.options);
        const std::scoped_lock lock(state.mutex);
        state.variants.emplace(std::move(key), function);
    }
    const ElementwiseLaunch launch = elementwise_launch(
        k, call.variant, call.values, Device::current().properties().multiprocessor_count);
    call.values.row_length = launch.row_length;
    call.values.tile_columns = launch.tile_columns;
    PackedArguments packed(call.variant, call.values);
    const ProfileRange range(k.name.c_str());
    const Dim3 grid{launch.grid, 1, 1};
    const Dim3 block{launch.block, 1, 1};
    backend().launch(function, {grid, block, launch.shared_bytes, stream.native()},
                     packed.pointers());
    recorded->launches.push_back({function, grid, block, launch.shared_bytes, packed.pack()});
    return recorded;
}

// Runs a call: replays a recorded call of the same layout, or resolves, compiles and launches
// it and records it. Returns the outputs.
std::vector<ndarray> call_kernel(ElementwiseState& state, std::span<const Argument> args,
                                 const CallOptions& options) {
    const StreamView stream = options.stream.value_or(current_stream());
    CallSignature signature;
    const std::optional<int> device = current_device_if_any();
    if (device) {
        signature = CallSignature(*device, args);
        signature.add(options.size.value_or(-1));
        if (const auto recorded = state.calls.find(signature)) {
            return replay(*recorded, args, {}, stream);
        }
    }
    Call call = prepare(state.definition, args, options);
    const auto recorded = run(state, call, stream);
    if (device) {
        recorded->signature = signature;
        state.calls.add(recorded);
    }
    const auto first_output = static_cast<std::ptrdiff_t>(state.definition.in.size());
    return {std::make_move_iterator(call.arrays.begin() + first_output),
            std::make_move_iterator(call.arrays.end())};
}

}  // namespace

}  // namespace kiln::detail

namespace kiln {

ElementwiseKernel::ElementwiseKernel(const std::string& in_params, const std::string& out_params,
                                     std::string operation, std::string name,
                                     ElementwiseOptions options) {
    // Never destroyed: kernel objects may outlive static destruction.
    static auto* shared = new detail::SharedDefinitions<detail::ElementwiseState>();
    detail::DefinitionKey key;
    key.add(in_params).add(out_params).add(operation).add(name);
    key.add_flag(options.reduce_dims).add(options.preamble).add(options.loop_prep);
    key.add(options.after_loop).add(options.options).add_flag(options.no_return);
    key.add_flag(options.return_tuple);
    state_ = shared->get(key, [&] {
        return std::make_shared<detail::ElementwiseState>(
            in_params, out_params, std::move(operation), std::move(name), std::move(options));
    });
}

ElementwiseKernel::~ElementwiseKernel() = default;
ElementwiseKernel::ElementwiseKernel(const ElementwiseKernel&) = default;
ElementwiseKernel& ElementwiseKernel::operator=(const ElementwiseKernel&) = default;
ElementwiseKernel::ElementwiseKernel(ElementwiseKernel&&) noexcept = default;
ElementwiseKernel& ElementwiseKernel::operator=(ElementwiseKernel&&) noexcept = default;

const std::string& ElementwiseKernel::name() const noexcept {
    return state_->definition.name;
}

ndarray ElementwiseKernel::operator()(std::initializer_list<Argument> args,
                                      const CallOptions& options) const {
    const detail::ElementwiseDefinition& k = state_->definition;
    // Checked before any device work, so that the mistake shows without a device.
    if (!k.options.no_return && k.options.return_tuple) {
        throw TypeError(detail::fail_prefix(k) +
                        "operator() returns one array but the kernel has return_tuple set; "
                        "call outputs()");
    }
    if (!k.options.no_return && k.out.size() > 1) {
        throw TypeError(detail::fail_prefix(k) +
                        "operator() returns one array but the kernel has " +
                        std::to_string(k.out.size()) + " outputs; call outputs()");
    }
    auto results =
        detail::call_kernel(*state_, std::span<const Argument>(args.begin(), args.size()), options);
    if (k.options.no_return) {
        return {};
    }
    return std::move(results.front());
}

std::vector<ndarray> ElementwiseKernel::outputs(std::span<const Argument> args,
                                                const CallOptions& options) const {
    auto results = detail::call_kernel(*state_, args, options);
    if (state_->definition.options.no_return) {
        return {};
    }
    return results;
}

std::string ElementwiseKernel::source(std::span<const Argument> args,
                                      const CallOptions& options) const {
    return detail::elementwise_source(state_->definition,
                                      detail::prepare(state_->definition, args, options).variant);
}

}  // namespace kiln
